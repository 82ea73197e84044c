//! The wall clock, read in one place: handlers, rooms and actors read it and pass `now` on, so
//! that storage and pure logic never do.

/// Milliseconds since the Unix epoch: the timestamps stored with sessions, actions and results.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The wall-clock time (milliseconds since the Unix epoch) of a monotonic instant: what a
/// room's timers become on the wire.
pub fn wall_ms(at: tokio::time::Instant) -> i64 {
    let now = tokio::time::Instant::now();
    match at.checked_duration_since(now) {
        Some(ahead) => now_ms() + ahead.as_millis() as i64,
        None => now_ms() - now.duration_since(at).as_millis() as i64,
    }
}

/// The monotonic instant of a wall-clock time, or now for a time already past: what a room
/// waits for (the end of a player's vacation).
pub fn instant_at(wall_ms: i64) -> tokio::time::Instant {
    let ahead = (wall_ms - now_ms()).max(0) as u64;
    tokio::time::Instant::now() + std::time::Duration::from_millis(ahead)
}
