//! Which operating-system process a node is: its machine (host name and the kernel's boot id,
//! which containers on one machine share) and its process id. A node starting on the machine of
//! a node that still looks live can tell whether that node's process is gone (a crash just
//! before this start), and take what it held at once instead of a lease later: a dead process's
//! database connections may linger for a moment after it dies, or for hours when its container
//! vanished without closing them.

/// A node's process, as stored with the node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Process {
    pub host: String,
    pub boot_id: String,
    pub pid: i64,
}

/// A line of a file under `/proc`, or `unknown` where there is none (not Linux).
fn proc_line(path: &str) -> String {
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".to_string())
}

impl Process {
    /// This process.
    pub fn current() -> Process {
        Process {
            host: proc_line("/proc/sys/kernel/hostname"),
            boot_id: proc_line("/proc/sys/kernel/random/boot_id"),
            pid: i64::from(std::process::id()),
        }
    }

    /// Whether `other` ran on this machine, since its last boot, and is no longer running: its
    /// process id names no process. A process id reused by another program keeps the answer
    /// `false`, and the lease decides, as for a node elsewhere. (A restarted container's first
    /// process has the id of its predecessor, 1, and its name too, which tells it.)
    pub fn outlived(&self, other: &Process) -> bool {
        let here =
            self.host == other.host && self.boot_id == other.boot_id && self.boot_id != "unknown";
        here && !std::path::Path::new(&format!("/proc/{}", other.pid)).exists()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_of_this_machine_is_outlived_once_gone() {
        let me = Process::current();
        assert!(!me.outlived(&me), "this process runs");
        // The test runner's parent is alive.
        let parent = Process {
            pid: i64::from(std::os::unix::process::parent_id()),
            ..me.clone()
        };
        assert!(!me.outlived(&parent));
        // No process has this id (beyond the kernel's limit).
        let gone = Process {
            pid: 1 << 40,
            ..me.clone()
        };
        assert!(me.outlived(&gone));
        // On another machine nothing can be told.
        let elsewhere = Process {
            host: "elsewhere".into(),
            ..gone.clone()
        };
        assert!(!me.outlived(&elsewhere));
        let rebooted = Process {
            boot_id: "another boot".into(),
            ..gone
        };
        assert!(!me.outlived(&rebooted));
    }
}
