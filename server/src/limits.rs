//! Limits beyond the body and frame sizes: how often one client address may try to log in, to
//! register, to make a guest and, without a session, to ask for a position, how often one player may ask for an analysis, write in the chat
//! and challenge others, a growing lock on a username after repeated failed logins, and which
//! other origins' pages may call the API (CORS). A refusal is a `rate_limited` error (over REST
//! with a `Retry-After` header).
//!
//! In a cluster, the failed logins are counted in the database, so a username's lock holds on
//! every node. The rates are kept by each node in memory: a client spreading its requests over
//! `n` nodes gets `n` times the rate (see docs/architecture.md for why, and the proxy's part).

use protocol::ErrorReason;
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, Method, header};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use protocol::PlayerId;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::store::Failures;

/// Keys (addresses, players) a limiter remembers before it forgets those back to a full burst.
const REMEMBERED_KEYS: usize = 10_000;

pub struct Limits {
    logins: KeyLimit<IpAddr>,
    registrations: KeyLimit<IpAddr>,
    guests: KeyLimit<IpAddr>,
    /// Positions asked for without a session (a visitor's lesson).
    visitor_positions: KeyLimit<IpAddr>,
    challenges: KeyLimit<PlayerId>,
    analyses: KeyLimit<PlayerId>,
    /// Chat messages per player, whatever the channel and the socket.
    chat: KeyLimit<PlayerId>,
    failed_logins: LoginBackoff,
}

impl Limits {
    pub fn new(config: &Config) -> Limits {
        Limits {
            logins: KeyLimit::new(
                "too many logins from your address",
                config.logins_per_minute,
                config.login_burst,
            ),
            registrations: KeyLimit::new(
                "too many registrations from your address",
                config.registrations_per_minute,
                config.registration_burst,
            ),
            guests: KeyLimit::new(
                "too many guest accounts from your address",
                config.guests_per_minute,
                config.guest_burst,
            ),
            visitor_positions: KeyLimit::new(
                "too many positions from your address",
                config.visitor_positions_per_minute,
                config.visitor_position_burst,
            ),
            challenges: KeyLimit::new(
                "you have challenged too often",
                config.challenges_per_minute,
                config.challenge_burst,
            ),
            analyses: KeyLimit::new(
                "too many analyses",
                config.analyses_per_minute,
                config.analysis_burst,
            ),
            chat: KeyLimit::new(
                "you are writing too fast",
                config.chat_messages_per_minute,
                config.chat_burst,
            ),
            failed_logins: LoginBackoff {
                free: config.login_free_failures,
                first: Duration::from_secs(config.login_backoff_secs),
                max: Duration::from_secs(config.login_backoff_max_secs),
            },
        }
    }

    /// One more login attempt from `ip`.
    pub fn login_attempt(&self, ip: IpAddr) -> ApiResult<()> {
        self.logins.check(ip)
    }

    /// One more registration attempt from `ip`.
    pub fn registration_attempt(&self, ip: IpAddr) -> ApiResult<()> {
        self.registrations.check(ip)
    }

    /// One more guest account made from `ip`.
    pub fn guest_attempt(&self, ip: IpAddr) -> ApiResult<()> {
        self.guests.check(ip)
    }

    /// One more position asked for without a session from `ip`.
    pub fn visitor_position(&self, ip: IpAddr) -> ApiResult<()> {
        self.visitor_positions.check(ip)
    }

    /// One more challenge from `player`.
    pub fn challenge(&self, player: PlayerId) -> ApiResult<()> {
        self.challenges.check(player)
    }

    /// One more analysis for `player`.
    pub fn analysis(&self, player: PlayerId) -> ApiResult<()> {
        self.analyses.check(player)
    }

    /// One more chat message from `player`.
    pub fn chat_message(&self, player: PlayerId) -> ApiResult<()> {
        self.chat.check(player)
    }

    pub fn failed_logins(&self) -> &LoginBackoff {
        &self.failed_logins
    }
}

/// A token bucket per key (a client address, a player); `None` when the limit is off.
struct KeyLimit<K: Hash + Eq + Clone> {
    refusal: &'static str,
    limiter: Option<DefaultKeyedRateLimiter<K>>,
}

impl<K: Hash + Eq + Clone> KeyLimit<K> {
    fn new(refusal: &'static str, per_minute: u32, burst: u32) -> KeyLimit<K> {
        let limiter = NonZeroU32::new(per_minute).map(|rate| {
            let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
            RateLimiter::keyed(Quota::per_minute(rate).allow_burst(burst))
        });
        KeyLimit { refusal, limiter }
    }

    fn check(&self, key: K) -> ApiResult<()> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if limiter.len() > REMEMBERED_KEYS {
            limiter.retain_recent();
        }
        limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::rate_limited(
                |seconds| ErrorReason::RateLimited { seconds },
                self.refusal,
                wait,
            )
        })
    }
}

/// Failed logins per username (case-insensitively, as usernames are unique): the first `free`
/// cost nothing, then each locks the username for `first`, doubling with every further
/// failure up to `max`; a username left alone for `max` after its last failure or lock starts
/// afresh. The lock holds whatever the password, so that guessing cannot go on
/// from many addresses at once; a successful login clears the count.
pub struct LoginBackoff {
    free: u32,
    first: Duration,
    max: Duration,
}

impl LoginBackoff {
    /// Refuses a login for a username whose failures lock it at `now_ms`.
    pub fn check(&self, failures: Option<Failures>, now_ms: i64) -> ApiResult<()> {
        match failures {
            Some(f) if f.locked_until_ms > now_ms => Err(ApiError::rate_limited(
                |seconds| ErrorReason::LoginLocked { seconds },
                "too many failed logins for this username",
                Duration::from_millis((f.locked_until_ms - now_ms) as u64),
            )),
            _ => Ok(()),
        }
    }

    /// The failures after one more at `now_ms`.
    pub fn failed(&self, failures: Option<Failures>, now_ms: i64) -> Failures {
        let max_ms = self.max.as_millis() as i64;
        let count = match failures {
            Some(f) if now_ms < f.locked_until_ms + max_ms => f.count + 1,
            _ => 1,
        };
        let locked_until_ms = match count.checked_sub(self.free + 1) {
            Some(over) => {
                let lock = self.first.saturating_mul(1 << over.min(20)).min(self.max);
                now_ms + lock.as_millis() as i64
            }
            None => now_ms,
        };
        Failures {
            count,
            locked_until_ms,
        }
    }

    /// How long failures are remembered after their lock: a quiet spell this long starts afresh.
    pub fn memory(&self) -> Duration {
        self.max
    }
}

/// The address a request comes from: the configured proxy header's last address, else the
/// peer's.
pub struct ClientIp(pub IpAddr);

/// The header a trusted proxy puts the client's address in, when the operator named one
/// (`--client-ip-header`): all that [`ClientIp`] needs of the server's state.
pub struct ClientIpHeader(pub Option<HeaderName>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp
where
    ClientIpHeader: FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ClientIp, Self::Rejection> {
        let ClientIpHeader(header) = ClientIpHeader::from_ref(state);
        let forwarded = header.as_ref().and_then(|name| {
            let value = parts.headers.get_all(name).iter().next_back()?;
            value.to_str().ok()?.rsplit(',').next()?.trim().parse().ok()
        });
        let peer = || {
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(addr)| addr.ip())
        };
        // Served without connection info (only in-process uses of `app`), every request
        // shares one address.
        Ok(ClientIp(
            forwarded
                .or_else(peer)
                .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)),
        ))
    }
}

/// The CORS layer for the configured origins; none when there are none, so that browsers
/// keep every other origin's pages away from the API.
pub fn cors(config: &Config) -> Option<CorsLayer> {
    if config.cors_origins.is_empty() {
        return None;
    }
    let origins = if config.cors_origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            config
                .cors_origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o).ok()),
        )
    };
    Some(
        CorsLayer::new()
            .allow_origin(origins)
            .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
            .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
            .expose_headers([header::RETRY_AFTER])
            .max_age(Duration::from_secs(3600)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backoff() -> LoginBackoff {
        LoginBackoff {
            free: 2,
            first: Duration::from_secs(1),
            max: Duration::from_secs(5),
        }
    }

    /// The stored failures of one username, as the store keeps them.
    struct Name(Option<Failures>);

    impl Name {
        fn fail(&mut self, b: &LoginBackoff, now: i64) {
            self.0 = Some(b.failed(self.0, now));
        }

        fn retry_after(&self, b: &LoginBackoff, now: i64) -> Option<u64> {
            b.check(self.0, now).err().map(|e| e.retry_after.unwrap())
        }
    }

    #[test]
    fn locks_grow_after_the_free_failures_up_to_the_max() {
        let b = backoff();
        let at = |s: i64| 1_000_000 + s * 1000;
        let (mut alice, bob) = (Name(None), Name(None));
        alice.fail(&b, at(0));
        alice.fail(&b, at(0));
        assert_eq!(alice.retry_after(&b, at(0)), None, "two failures are free");
        // Each further failure, once the lock is over, doubles it: 1, 2, 4, then 5 (the max).
        let mut now = 0;
        for lock in [1, 2, 4, 5, 5] {
            alice.fail(&b, at(now));
            assert_eq!(alice.retry_after(&b, at(now)), Some(lock));
            assert_eq!(bob.retry_after(&b, at(now)), None, "other names are free");
            now += lock as i64;
            assert_eq!(alice.retry_after(&b, at(now)), None, "the lock ends");
        }
        // A success clears the count (the store forgets it): two free failures again.
        alice = Name(None);
        alice.fail(&b, at(now));
        alice.fail(&b, at(now));
        assert_eq!(alice.retry_after(&b, at(now)), None);
        alice.fail(&b, at(now));
        assert_eq!(alice.retry_after(&b, at(now)), Some(1));
        // So does a quiet spell as long as the longest lock, after the last lock.
        now += 1 + 5;
        alice.fail(&b, at(now));
        assert_eq!(alice.retry_after(&b, at(now)), None);
    }
}
