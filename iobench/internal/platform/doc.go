// Package platform refuses, at build time, the systems iobench does not
// support. iobench measures write(2), fsync(2) and syncfs(2) on POSIX file
// systems: Linux has every feature; other Unix systems (macOS, the BSDs)
// build without O_DIRECT (--direct is refused at start) and flush with
// sync(2) instead of syncfs(2). Windows has none of these calls, so a build
// for it fails here with one clear line instead of a hundred errors from
// the engine. The engine imports this package for that effect only.
package platform
