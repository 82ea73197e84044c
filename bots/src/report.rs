//! What a load run measured: round trips answered, their latency (an HDR histogram in
//! microseconds), and errors by code; for a run over several server nodes, the latency of moves
//! sent on the match's owner node and of moves sent from another node, apart.

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
    /// Round trips by where they were sent from, when the run went to several server nodes:
    /// `None` until one is counted so (a one-node run never has it).
    pub split: Option<NodeSplit>,
}

/// The latency of moves sent on the node that owns the match and of moves sent from another
/// node (whose acks cross nodes), in microseconds. Both histograms grow with what they record,
/// so that a split costs each bot little.
#[derive(Clone, Debug)]
pub struct NodeSplit {
    pub owner: Histogram<u64>,
    pub cross: Histogram<u64>,
}

impl Default for NodeSplit {
    fn default() -> Self {
        // Auto-resizing, at the total's precision.
        let grows = || Histogram::new(3).expect("valid precision");
        NodeSplit {
            owner: grows(),
            cross: grows(),
        }
    }
}

impl NodeSplit {
    /// Moves counted, on the owner node and from another.
    pub fn counts(&self) -> (u64, u64) {
        (self.owner.len(), self.cross.len())
    }
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
            split: None,
        }
    }
}

impl Stats {
    pub fn round_trip(&mut self, took: Duration) {
        self.latency.saturating_record(micros(took));
        self.round_trips += 1;
    }

    /// A round trip of a run over several nodes: counted as [`Stats::round_trip`] does, and
    /// also apart by whether it was sent from a node other than the match's owner.
    pub fn round_trip_on(&mut self, took: Duration, cross_node: bool) {
        self.round_trip(took);
        let split = self.split.get_or_insert_with(NodeSplit::default);
        let histogram = match cross_node {
            true => &mut split.cross,
            false => &mut split.owner,
        };
        // `record`, not `saturating_record`: only the former grows the histogram.
        histogram
            .record(micros(took))
            .expect("a growing histogram takes any value within bounds");
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
        if let Some(theirs) = &other.split {
            let ours = self.split.get_or_insert_with(NodeSplit::default);
            ours.owner.add(&theirs.owner).expect("growing histograms");
            ours.cross.add(&theirs.cross).expect("growing histograms");
        }
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }
}

/// A duration in whole microseconds, within the histograms' bounds (1 µs to 10 minutes).
fn micros(took: Duration) -> u64 {
    (took.as_micros() as u64).clamp(1, 600_000_000)
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
    /// The server nodes the sockets were spread over (1 for a single server).
    pub nodes: usize,
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

    /// The share of round trips sent from a node other than the match's owner, from 0 to 1;
    /// `None` for a run on one node.
    pub fn cross_node_share(&self) -> Option<f64> {
        let (owner, cross) = self.stats.split.as_ref()?.counts();
        (owner + cross > 0).then(|| cross as f64 / (owner + cross) as f64)
    }

    /// A latency quantile in milliseconds of the moves sent from another node than the
    /// match's owner (`cross_node`) or on the owner; `None` when there were none.
    pub fn split_quantile_ms(&self, cross_node: bool, q: f64) -> Option<f64> {
        let split = self.stats.split.as_ref()?;
        let histogram = if cross_node {
            &split.cross
        } else {
            &split.owner
        };
        (!histogram.is_empty()).then(|| histogram.value_at_quantile(q) as f64 / 1000.0)
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
        if self.nodes > 1 {
            writeln!(f, "nodes:        {}", self.nodes)?;
        }
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
                    "latency ms:   p50 {:.3}  p90 {:.3}  p99 {:.3}  p99.9 {:.3}  max {:.3}",
                    self.quantile_ms(0.5),
                    self.quantile_ms(0.9),
                    self.quantile_ms(0.99),
                    self.quantile_ms(0.999),
                    self.max_ms()
                )?;
            }
            if let Some(split) = self.stats.split.as_ref().filter(|_| self.nodes > 1) {
                let (owner, cross) = split.counts();
                writeln!(
                    f,
                    "cross-node:   {:.1}% of {what} ({cross} of {}: sent from a node other than the match's owner)",
                    self.cross_node_share().unwrap_or(0.0) * 100.0,
                    owner + cross
                )?;
                for (label, histogram) in
                    [("on owner ms:", &split.owner), ("cross ms:", &split.cross)]
                {
                    if histogram.is_empty() {
                        continue;
                    }
                    let ms = |q: f64| histogram.value_at_quantile(q) as f64 / 1000.0;
                    writeln!(
                        f,
                        "{label:<13} p50 {:.3}  p90 {:.3}  p99 {:.3}  max {:.3}",
                        ms(0.5),
                        ms(0.9),
                        ms(0.99),
                        histogram.max() as f64 / 1000.0
                    )?;
                }
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
            nodes: 1,
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
        assert!(!text.contains("nodes:"), "{text}");
        assert!(!text.contains("cross-node"), "{text}");
        assert_eq!(report.cross_node_share(), None);
    }

    #[test]
    fn moves_are_split_by_the_node_they_were_sent_from() {
        let mut a = Stats::default();
        a.round_trip_on(Duration::from_micros(1000), false);
        a.round_trip_on(Duration::from_micros(1000), false);
        let mut b = Stats::default();
        b.round_trip_on(Duration::from_micros(4000), true);
        b.round_trip_on(Duration::from_micros(900_000), false);
        let mut total = Stats::default();
        total.merge(&a);
        total.merge(&b);
        assert_eq!(total.round_trips, 4);
        assert_eq!(total.split.as_ref().unwrap().counts(), (3, 1));
        let report = Report {
            mode: "play",
            sockets: 4,
            connected: 4,
            nodes: 3,
            elapsed: Duration::from_secs(1),
            stats: total,
            server_rss_kib: None,
            client_rss_kib: None,
        };
        assert_eq!(report.cross_node_share(), Some(0.25));
        assert!((report.split_quantile_ms(true, 0.5).unwrap() - 4.0).abs() < 0.01);
        assert!((report.split_quantile_ms(false, 0.5).unwrap() - 1.0).abs() < 0.01);
        assert!(report.split_quantile_ms(false, 1.0).unwrap() > 899.0);
        let text = report.to_string();
        assert!(text.contains("nodes:        3"), "{text}");
        assert!(
            text.contains("cross-node:   25.0% of moves acked (1 of 4: sent from a node other"),
            "{text}"
        );
        assert!(text.contains("on owner ms:  p50 1.000"), "{text}");
        assert!(text.contains("cross ms:     p50 4.0"), "{text}");
    }
}
