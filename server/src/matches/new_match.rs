//! A new match: everything chosen when it is created.

/// Everything chosen when a match is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    pub rated: bool,
    /// Fischer clock as (base, increment) in milliseconds.
    pub clock: Option<(u64, u64)>,
    pub private: bool,
    pub invite: Option<String>,
    pub hotseat: bool,
    pub seed: u64,
    pub created_ms: i64,
}
