"""A case-insensitive, normalization-insensitive filesystem for tests, mounted with FUSE.

Names are matched as macOS (APFS) and Windows (NTFS) match them by default: `Index.HTML`
and `index.html`, `café` in NFC and in NFD are one entry, stored under the spelling it
was created with. As Windows does, a name loses its trailing dots and spaces: `notes.`
is created as `notes`, and both names open it. Everything else passes through to a
backing directory.

Usage: casefold-fs.py BACKING MOUNTPOINT (runs in the foreground until unmounted).
"""

import errno
import os
import sys
import unicodedata

from fusepy import FUSE, FuseOSError, Operations


def stored(name):
    """The name a new entry gets: Windows drops trailing dots and spaces (not from `.` or `..`)."""
    return name.rstrip(". ") or name


def key(name):
    return unicodedata.normalize("NFC", stored(name)).casefold()


class Casefold(Operations):
    def __init__(self, backing):
        self.backing = backing

    def real(self, path):
        """The backing path of `path`, each component matched regardless of case and form."""
        current = self.backing
        for part in [p for p in path.split("/") if p]:
            match = stored(part)
            if os.path.isdir(current) and not os.path.islink(current):
                wanted = key(part)
                for existing in os.listdir(current):
                    if key(existing) == wanted:
                        match = existing
                        break
            current = os.path.join(current, match)
        return current

    def exclusive(self, path):
        real = self.real(path)
        if os.path.lexists(real):
            raise FuseOSError(errno.EEXIST)
        return real

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self.real(path))
        except FileNotFoundError:
            raise FuseOSError(errno.ENOENT)
        keys = ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size", "st_uid", "st_ino")
        return {k: getattr(st, k) for k in keys}

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self.real(path))

    def readlink(self, path):
        return os.readlink(self.real(path))

    def mkdir(self, path, mode):
        os.mkdir(self.exclusive(path), mode)

    def rmdir(self, path):
        os.rmdir(self.real(path))

    def unlink(self, path):
        os.unlink(self.real(path))

    def symlink(self, target, source):
        os.symlink(source, self.exclusive(target))

    def link(self, target, source):
        os.link(self.real(source), self.exclusive(target))

    def rename(self, old, new):
        os.rename(self.real(old), self.real(new))

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self.real(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self.real(path), times, follow_symlinks=False)

    def truncate(self, path, length, fh=None):
        os.truncate(self.real(path), length)

    def statfs(self, path):
        st = os.statvfs(self.real(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")
        return {k: getattr(st, k) for k in keys}

    def create(self, path, mode, fi=None):
        return os.open(self.exclusive(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)

    def open(self, path, flags):
        return os.open(self.real(path), flags)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)

    def fsync(self, path, datasync, fh):
        os.fsync(fh)


if __name__ == "__main__":
    FUSE(Casefold(sys.argv[1]), sys.argv[2], foreground=True, use_ino=True, attr_timeout=0, entry_timeout=0, negative_timeout=0)
