//! What a load run measured: round trips answered, their latency (an HDR histogram in
//! microseconds), and errors by code.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use hdrhistogram::Histogram;

/// Counters kept by one task and merged at the end of a run.
#[derive(Clone, Debug)]
pub struct Stats {
    /// Round trip latencies, in microseconds.
    pub latency: Histogram<u64>,
    /// Round trips answered: acked moves, or echoed frames.
    pub round_trips: u64,
    pub matches_started: u64,
    pub matches_finished: u64,
    /// Errors by code: the server's error codes, and the client's own (`socket_closed`, ...).
    pub errors: BTreeMap<String, u64>,
    /// The first message seen with each error code, with what was being done.
    pub error_samples: BTreeMap<String, String>,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            // 1 µs to 10 minutes at 3 significant figures.
            latency: Histogram::new_with_bounds(1, 600_000_000, 3).expect("valid bounds"),
            round_trips: 0,
            matches_started: 0,
            matches_finished: 0,
            errors: BTreeMap::new(),
            error_samples: BTreeMap::new(),
        }
    }
}

impl Stats {
    pub fn round_trip(&mut self, took: Duration) {
        let micros = (took.as_micros() as u64).clamp(1, 600_000_000);
        self.latency.saturating_record(micros);
        self.round_trips += 1;
    }

    pub fn error(&mut self, code: &str) {
        *self.errors.entry(code.to_string()).or_default() += 1;
    }

    /// An error with what the server said about it; the first message per code is kept.
    pub fn error_saying(&mut self, code: &str, message: impl FnOnce() -> String) {
        self.error(code);
        if !self.error_samples.contains_key(code) {
            self.error_samples.insert(code.to_string(), message());
        }
    }

    pub fn merge(&mut self, other: &Stats) {
        self.latency.add(&other.latency).expect("same bounds");
        self.round_trips += other.round_trips;
        self.matches_started += other.matches_started;
        self.matches_finished += other.matches_finished;
        for (code, n) in &other.errors {
            *self.errors.entry(code.clone()).or_default() += n;
        }
        for (code, message) in &other.error_samples {
            self.error_samples
                .entry(code.clone())
                .or_insert_with(|| message.clone());
        }
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }
}

/// The outcome of one run.
#[derive(Clone, Debug)]
pub struct Report {
    /// `play`, `echo` or `idle`.
    pub mode: &'static str,
    /// Sockets asked for.
    pub sockets: usize,
    /// Sockets that were open when the measurement started.
    pub connected: usize,
    /// How long the measurement ran.
    pub elapsed: Duration,
    pub stats: Stats,
    /// For idle runs: the server's resident memory before the sockets opened and while they
    /// were all open, in KiB.
    pub server_rss_kib: Option<(u64, u64)>,
    /// This process's resident memory while every socket was open, in KiB.
    pub client_rss_kib: Option<u64>,
}

impl Report {
    /// Round trips answered per second.
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.stats.round_trips as f64 / secs
        } else {
            0.0
        }
    }

    /// A latency quantile in milliseconds.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        self.stats.latency.value_at_quantile(q) as f64 / 1000.0
    }

    pub fn max_ms(&self) -> f64 {
        self.stats.latency.max() as f64 / 1000.0
    }

    /// Server memory per open socket, in KiB.
    pub fn server_kib_per_socket(&self) -> Option<f64> {
        let (before, during) = self.server_rss_kib?;
        (self.connected > 0).then(|| during.saturating_sub(before) as f64 / self.connected as f64)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.mode {
            "play" => "moves acked",
            "echo" => "frames echoed",
            _ => "round trips",
        };
        writeln!(f, "mode:         {}", self.mode)?;
        writeln!(
            f,
            "sockets:      {} ({} connected)",
            self.sockets, self.connected
        )?;
        writeln!(f, "duration:     {:.1} s", self.elapsed.as_secs_f64())?;
        if self.mode == "play" {
            writeln!(
                f,
                "matches:      {} started, {} finished",
                self.stats.matches_started, self.stats.matches_finished
            )?;
        }
        if self.mode != "idle" {
            writeln!(f, "{what:<13} {}", self.stats.round_trips)?;
            writeln!(f, "per second:   {:.0}", self.rate())?;
            if self.stats.round_trips > 0 {
                writeln!(
                    f,
                    "latency ms:   p50 {:.3}  p90 {:.3}  p99 {:.3}  max {:.3}",
                    self.quantile_ms(0.5),
                    self.quantile_ms(0.9),
                    self.quantile_ms(0.99),
                    self.max_ms()
                )?;
            }
        }
        if let Some((before, during)) = self.server_rss_kib {
            writeln!(
                f,
                "server RSS:   {before} KiB before, {during} KiB with the sockets open"
            )?;
            if let Some(per) = self.server_kib_per_socket() {
                writeln!(f, "per socket:   {per:.1} KiB")?;
            }
        }
        if let Some(client) = self.client_rss_kib {
            writeln!(f, "client RSS:   {client} KiB")?;
        }
        if self.stats.errors.is_empty() {
            writeln!(f, "errors:       none")?;
        } else {
            let listed: Vec<String> = self
                .stats
                .errors
                .iter()
                .map(|(code, n)| format!("{code} {n}"))
                .collect();
            writeln!(f, "errors:       {}", listed.join(", "))?;
            for (code, message) in &self.stats.error_samples {
                writeln!(f, "  {code}: {message}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_merge_and_report() {
        let mut a = Stats::default();
        a.round_trip(Duration::from_micros(1000));
        a.error("rate_limited");
        let mut b = Stats::default();
        b.round_trip(Duration::from_micros(3000));
        b.error("rate_limited");
        b.error("socket_closed");
        a.merge(&b);
        assert_eq!(a.round_trips, 2);
        assert_eq!(a.errors["rate_limited"], 2);
        assert_eq!(a.error_count(), 3);
        let report = Report {
            mode: "echo",
            sockets: 2,
            connected: 2,
            elapsed: Duration::from_secs(2),
            stats: a,
            server_rss_kib: None,
            client_rss_kib: None,
        };
        assert_eq!(report.rate(), 1.0);
        assert!((report.quantile_ms(0.5) - 1.0).abs() < 0.01);
        assert!((report.max_ms() - 3.0).abs() < 0.01);
        let text = report.to_string();
        assert!(text.contains("frames echoed 2"), "{text}");
        assert!(text.contains("rate_limited 2, socket_closed 1"), "{text}");
    }
}
