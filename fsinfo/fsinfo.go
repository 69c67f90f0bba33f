package fsinfo

// Info is what iobench reports about the directory it writes into. Sizes are
// raw bytes; humanizing is the reporter's job.
type Info struct {
	Dir          string `json:"dir"`            // as given
	ResolvedDir  string `json:"resolved_dir"`   // absolute, symlinks resolved
	DirIsSymlink bool   `json:"dir_is_symlink"` // the given path itself is a symlink
	Type         string `json:"type"`           // mount FSType when known ("ext4"), else MagicName
	MagicName    string `json:"magic_name"`     // MagicName(Magic)
	Magic        int64  `json:"magic"`          // statfs f_type
	MagicHex     string `json:"magic_hex"`      // Magic in hex, "0xef53"
	BlockSize    int64  `json:"block_size"`     // statvfs f_bsize: what `stat -f -c %s DIR` prints
	FragmentSize int64  `json:"fragment_size"`  // statvfs f_frsize: what `stat -f -c %S DIR` prints
	IOBlockSize  int64  `json:"io_block_size"`  // st_blksize of the directory, stat(2)
	TotalBytes   uint64 `json:"total_bytes"`    // f_blocks*f_frsize
	FreeBytes    uint64 `json:"free_bytes"`     // f_bfree*f_frsize
	AvailBytes   uint64 `json:"avail_bytes"`    // f_bavail*f_frsize: what a non-root user may use
	MountPoint   string `json:"mount_point"`    // empty when no mount contains ResolvedDir
	Device       string `json:"device"`         // mount source, e.g. "/dev/vda" or "server:/export"
	MountOptions string `json:"mount_options"`  // per-mount options, e.g. "rw,relatime"
	SuperOptions string `json:"super_options"`  // per-superblock options; NFS wsize/rsize live here
	ReadOnly     bool   `json:"read_only"`      // ST_RDONLY flag or "ro" mount option
}
