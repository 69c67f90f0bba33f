// Package golden is the one golden-file check the tests share
// (compare, or rewrite with -update, with a readable diff). Tests only:
// no non-test package may import it.
package golden
