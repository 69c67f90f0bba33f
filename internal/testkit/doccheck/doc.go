// Package doccheck holds the test that runs the commands of README.md and
// docs/: every ```sh block, as a reader would paste it, so a chain that
// stops working fails the tests. It has no code of its own; it imports
// nothing of iobench and nothing imports it.
package doccheck
