//go:build !linux

package sqlstore_test

const helperShmLock = "CONFER_SQLSTORE_SHM_LOCK"

func shmLocked(string) int { return 1 }
