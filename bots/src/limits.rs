//! The process's open-file limit: thousands of sockets need thousands of descriptors.

/// Raises the soft limit on open files to at least `wanted` (up to the hard limit, or above it
/// when the process may). Returns the soft limit now in force.
pub fn raise_open_files(wanted: u64) -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed in.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 0;
        }
        if limit.rlim_cur >= wanted {
            return limit.rlim_cur;
        }
        // Above the hard limit only a privileged process may go; try, then settle for the hard
        // limit.
        let raised = libc::rlimit {
            rlim_cur: wanted,
            rlim_max: limit.rlim_max.max(wanted),
        };
        if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
            return wanted;
        }
        let capped = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        if libc::setrlimit(libc::RLIMIT_NOFILE, &capped) == 0 {
            return limit.rlim_max;
        }
        limit.rlim_cur
    }
}

/// A process's resident memory in KiB (`VmRSS` in `/proc/<pid>/status`).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_at_least_what_little_we_ask() {
        assert!(raise_open_files(64) >= 64);
    }

    #[test]
    fn our_own_rss_is_read() {
        let kib = rss_kib(std::process::id()).unwrap();
        assert!(kib > 100, "{kib}");
    }
}
