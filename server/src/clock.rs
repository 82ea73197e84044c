//! The wall clock, read in one place: handlers, rooms and actors read it and pass `now` on, so
//! that storage and pure logic never do.

/// Milliseconds since the Unix epoch: the timestamps stored with sessions, actions and results.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
