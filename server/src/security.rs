//! Security events: refused logins, locked usernames, rate limiting, refused origins, refused
//! sockets, banned accounts. Each is logged (with the account and the client address, never a
//! token or a password) and kept in a bounded list, newest last, that admins read over REST
//! (`GET /api/admin/security-events`). Repeats of one event from one address within a minute
//! are counted on its entry rather than added, so that a flood cannot push older events out.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::Mutex;

use protocol::SecurityEvent;

/// Events kept for admins; older ones are dropped.
const KEPT: usize = 1000;

/// Repeats of an event closer together than this are counted on one entry.
const COALESCE_MS: i64 = 60_000;

/// What happened.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A wrong username or password.
    LoginRefused,
    /// A username locked after failed logins was tried.
    LoginLocked,
    /// A banned account tried to log in or connect.
    BannedLogin,
    /// A per-address or per-socket rate limit refused a request or a message.
    RateLimited,
    /// A WebSocket upgrade from a page on an origin that is not allowed.
    OriginRefused,
    /// A player was over the number of sockets allowed.
    TooManySockets,
    Banned,
    Unbanned,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::LoginRefused => "login_refused",
            Kind::LoginLocked => "login_locked",
            Kind::BannedLogin => "banned_login",
            Kind::RateLimited => "rate_limited",
            Kind::OriginRefused => "origin_refused",
            Kind::TooManySockets => "too_many_sockets",
            Kind::Banned => "banned",
            Kind::Unbanned => "unbanned",
        }
    }

    /// Bans and refused origins deserve an operator's attention; the rest are routine.
    fn warns(self) -> bool {
        matches!(
            self,
            Kind::Banned | Kind::Unbanned | Kind::OriginRefused | Kind::LoginLocked
        )
    }
}

#[derive(Default)]
pub struct SecurityLog {
    events: Mutex<VecDeque<SecurityEvent>>,
}

impl SecurityLog {
    /// Logs an event and keeps it. `account` is a username, `detail` a sentence without
    /// secrets.
    pub fn record(&self, kind: Kind, account: Option<&str>, address: Option<IpAddr>, detail: &str) {
        let name = kind.name();
        let address_text = address.map(|a| a.to_string());
        if kind.warns() {
            tracing::warn!(
                event = name,
                account,
                address = address_text,
                detail,
                "security"
            );
        } else {
            tracing::info!(
                event = name,
                account,
                address = address_text,
                detail,
                "security"
            );
        }
        let now = crate::clock::now_ms();
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        let same = events.iter_mut().rev().find(|e| {
            e.kind == name && e.address == address_text && e.account.as_deref() == account
        });
        match same {
            Some(e) if now - e.last_ms < COALESCE_MS => {
                e.count += 1;
                e.last_ms = now;
            }
            _ => {
                events.push_back(SecurityEvent {
                    at_ms: now,
                    last_ms: now,
                    kind: name.to_string(),
                    account: account.map(str::to_string),
                    address: address_text,
                    detail: detail.to_string(),
                    count: 1,
                });
                while events.len() > KEPT {
                    events.pop_front();
                }
            }
        }
    }

    /// The latest events, newest first.
    pub fn recent(&self, limit: usize) -> Vec<SecurityEvent> {
        let events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events.iter().rev().take(limit).cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_from_one_address_are_counted_not_added() {
        let log = SecurityLog::default();
        let here: IpAddr = "10.0.0.1".parse().unwrap();
        let there: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..500 {
            log.record(Kind::RateLimited, None, Some(here), "too many logins");
        }
        log.record(
            Kind::LoginRefused,
            Some("alice"),
            Some(there),
            "wrong password",
        );
        let events = log.recent(10);
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].kind, "login_refused");
        assert_eq!(events[0].account.as_deref(), Some("alice"));
        assert_eq!(events[1].kind, "rate_limited");
        assert_eq!(events[1].count, 500);
        assert_eq!(events[1].address.as_deref(), Some("10.0.0.1"));
    }
}
