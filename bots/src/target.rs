//! Where a load run may go: this machine only. A URL whose host is not a loopback address (or
//! `localhost`) is refused, and no name is looked up in DNS.

use std::net::{IpAddr, SocketAddr};

use reqwest::Url;

use crate::Result;

/// Why a target was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotLoopback(pub String);

impl std::fmt::Display for NotLoopback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "refusing target '{}': load runs only go to this machine (127.0.0.0/8, ::1 or localhost)",
            self.0
        )
    }
}

impl std::error::Error for NotLoopback {}

/// Whether a URL's host is on this machine, judged from the text alone.
pub fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    }
}

/// Parses a URL and checks that it is a loopback target with one of the allowed schemes.
pub fn loopback_url(text: &str, schemes: &[&str]) -> Result<Url> {
    let url = Url::parse(text).map_err(|e| format!("'{text}' is not a URL: {e}"))?;
    if !schemes.contains(&url.scheme()) {
        return Err(format!("'{text}': the scheme must be one of {}", schemes.join(", ")).into());
    }
    if !is_loopback(&url) {
        return Err(NotLoopback(text.to_string()).into());
    }
    Ok(url)
}

/// A match server's base URL (`http://127.0.0.1:8080`), checked.
pub fn server_url(text: &str) -> Result<Url> {
    loopback_url(text, &["http"])
}

/// The WebSocket endpoint of a match server.
pub fn socket_url(server: &Url) -> String {
    let mut url = server.clone();
    url.set_scheme("ws")
        .expect("http and ws URLs share a shape");
    url.set_path("/ws");
    url.set_query(None);
    url.to_string()
}

/// A bind address for a server of ours: loopback only.
pub fn loopback_bind(addr: SocketAddr) -> Result<SocketAddr> {
    let ok = match addr.ip() {
        IpAddr::V4(ip) => ip.is_loopback(),
        IpAddr::V6(ip) => ip.is_loopback(),
    };
    if ok {
        Ok(addr)
    } else {
        Err(NotLoopback(addr.to_string()).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_targets_pass() {
        for good in [
            "http://127.0.0.1:8080",
            "http://127.3.2.1:1",
            "http://localhost:9000/",
            "http://LOCALHOST:9000/",
            "http://[::1]:8080",
        ] {
            assert!(server_url(good).is_ok(), "{good}");
        }
        for bad in [
            "http://10.0.0.1:8080",
            "http://192.168.1.2",
            "http://8.8.8.8",
            "http://example.org",
            "http://localhost.example.org",
            "http://[::2]:80",
            "http://0.0.0.0:8080",
        ] {
            let e = server_url(bad).unwrap_err().to_string();
            assert!(e.contains("refusing target"), "{bad}: {e}");
        }
        assert!(server_url("ftp://127.0.0.1").is_err());
        assert!(loopback_url("ws://127.0.0.1:5/", &["ws"]).is_ok());
        assert!(loopback_url("ws://172.16.0.1:5/", &["ws"]).is_err());
    }

    #[test]
    fn the_socket_url_is_derived_from_the_server_url() {
        let url = server_url("http://127.0.0.1:8080/api?x=1").unwrap();
        assert_eq!(socket_url(&url), "ws://127.0.0.1:8080/ws");
    }

    #[test]
    fn binds_are_loopback_only() {
        assert!(loopback_bind("127.0.0.1:0".parse().unwrap()).is_ok());
        assert!(loopback_bind("[::1]:0".parse().unwrap()).is_ok());
        assert!(loopback_bind("0.0.0.0:0".parse().unwrap()).is_err());
    }
}
