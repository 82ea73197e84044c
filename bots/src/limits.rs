//! The process's open-file limit: thousands of sockets need thousands of descriptors.

/// Raises the soft limit on open files to at least `wanted` (up to the hard limit, or above it
/// when the process may). Returns the soft limit now in force.
pub fn raise_open_files(wanted: u64) -> u64 {
    use rlimit::Resource;
    // Above the hard limit only a privileged process may go: try that first.
    if let Ok((_, hard)) = Resource::NOFILE.get()
        && hard < wanted
        && Resource::NOFILE.set(wanted, wanted).is_ok()
    {
        return wanted;
    }
    rlimit::increase_nofile_limit(wanted).unwrap_or(0)
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
