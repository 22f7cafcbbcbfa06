"""The memory a new allocation can count on, for size checks made before allocating."""

from __future__ import annotations


def available_memory() -> int | None:
    """Bytes of memory available to new allocations (Linux's MemAvailable), or None where
    the system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


__all__ = ["available_memory"]
