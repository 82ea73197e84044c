//! The real server binary as a child process, for the tests that stop it (SIGKILL, SIGTERM) and
//! start it again on the same database, or read its logs.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A server running as a child process. Dropping it kills the process, so that no server outlives
/// a failed test.
pub struct ServerProcess {
    child: Child,
    pub addr: SocketAddr,
    /// Where its standard output and error go.
    pub log: PathBuf,
}

/// A port nobody listens on right now.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

impl ServerProcess {
    /// Starts `server` logging warnings only.
    pub async fn start(database_url: &str) -> ServerProcess {
        ServerProcess::start_with(database_url, &["--log", "warn"]).await
    }

    /// Starts `server` with these extra arguments on a free loopback port and waits until
    /// `/api/health` answers `ok`.
    pub async fn start_with(database_url: &str, extra: &[&str]) -> ServerProcess {
        let log = std::env::temp_dir()
            .join("tafl-server-tests")
            .join(format!("server-{:016x}.log", rand::random::<u64>()));
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        // Another process may take the port between our probe and the server's bind: try again.
        for _ in 0..5 {
            let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
            let out = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)
                .unwrap();
            let child = Command::new(env!("CARGO_BIN_EXE_server"))
                .args(["--bind", &addr.to_string(), "--database-url", database_url])
                .args(super::unlimited_accounts(extra))
                .args(extra)
                .stdin(Stdio::null())
                .stdout(out.try_clone().unwrap())
                .stderr(out)
                .spawn()
                .unwrap();
            let mut server = ServerProcess {
                child,
                addr,
                log: log.clone(),
            };
            if server.wait_healthy().await {
                return server;
            }
        }
        panic!(
            "the server did not start; its log is {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
    }

    /// Polls `/api/health` until it answers `ok` (true) or the process exits (false).
    async fn wait_healthy(&mut self) -> bool {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return false;
            }
            let url = format!("http://{}/api/health", self.addr);
            if let Ok(response) = http.get(url).send().await
                && response.status() == 200
                && response
                    .json::<Value>()
                    .await
                    .ok()
                    .is_some_and(|h| h["status"] == "ok")
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "the server was not healthy within 30 s; log: {}",
            self.log.display()
        );
    }

    /// SIGKILL, and reap the process.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Sends SIGTERM (what a container runtime sends to stop a service).
    pub fn terminate(&self) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: kill only sends a signal to our own child, which we have not reaped yet.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    }

    /// Pauses the process (SIGSTOP) and returns once every thread of it has stopped. A stop is
    /// not immediate: the kernel wakes one thread, which then stops the others, and a thread
    /// already running (on a loaded machine) can go on handling a socket in between.
    pub async fn pause(&self) {
        self.signal(libc::SIGSTOP);
        let tasks = PathBuf::from(format!("/proc/{}/task", self.child.id()));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !every_thread_stopped(&tasks) {
            assert!(Instant::now() < deadline, "the process did not stop");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// Wakes a paused process (SIGCONT).
    pub fn resume(&self) {
        self.signal(libc::SIGCONT);
    }

    fn signal(&self, signal: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: kill only sends a signal to our own child, which we have not reaped yet.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    /// Waits up to `patience` for the process to exit by itself; `None` if it did not.
    pub async fn exit_within(&mut self, patience: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + patience;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        None
    }

    /// Everything the server has written so far.
    pub fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether every thread under `/proc/<pid>/task` is in state `T` (stopped by a signal).
fn every_thread_stopped(tasks: &std::path::Path) -> bool {
    let Ok(threads) = std::fs::read_dir(tasks) else {
        return false;
    };
    threads.flatten().all(|thread| {
        std::fs::read_to_string(thread.path().join("stat"))
            // The state follows the command name, which is in parentheses and may hold spaces.
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(") ")
                    .map(|(_, rest)| rest.starts_with('T'))
            })
            .unwrap_or(false)
    })
}
