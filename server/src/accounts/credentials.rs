//! Credentials: which usernames and passwords are accepted, and argon2 password hashes,
//! computed off the async runtime.

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Argon2, PasswordHash};
use protocol::ErrorReason;

use super::player::AI_PREFIX;
use crate::error::{ApiError, ApiResult};

/// A username: 3 to 24 letters, digits, `_` or `-`, starting with a letter.
pub fn check_username(name: &str) -> ApiResult<()> {
    let ok_len = (3..=24).contains(&name.chars().count());
    let ok_start = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if name.to_ascii_lowercase().starts_with(AI_PREFIX)
        || name.to_ascii_lowercase().starts_with("guest-")
    {
        return Err(ApiError::new(
            ErrorReason::UsernameReserved,
            "names starting with 'ai-' or 'guest-' are reserved",
        ));
    }
    if ok_len && ok_start && ok_chars {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorReason::UsernameInvalid,
            "a username has 3 to 24 letters, digits, '_' or '-', and starts with a letter",
        ))
    }
}

pub fn check_password(password: &str) -> ApiResult<()> {
    if (8..=256).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorReason::PasswordInvalid,
            "a password has 8 to 256 characters",
        ))
    }
}

/// Hashes a password with argon2 on the blocking pool: hashing takes tens of milliseconds by
/// design and must not stall the sockets served by this runtime thread.
pub async fn hash_password(password: String) -> ApiResult<String> {
    tokio::task::spawn_blocking(move || {
        // The salt is generated from the operating system's randomness.
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())
    .and_then(|r| r)
    .map_err(|e| {
        tracing::error!(error = %e, "password hashing failed");
        ApiError::new(ErrorReason::Internal, "could not hash the password")
    })
}

/// Checks a password against its stored hash, on the blocking pool.
pub async fn verify_password(hash: String, password: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_checked() {
        assert!(check_username("Ragnar").is_ok());
        assert!(check_username("ab").is_err());
        assert!(check_username("1abc").is_err());
        assert!(check_username("has space").is_err());
        assert!(check_username("ünïcode").is_err());
        assert!(check_username(&"a".repeat(25)).is_err());
        assert!(check_username("AI-level-1").is_err());
        assert!(check_username("guest-1234").is_err());
    }

    #[tokio::test]
    async fn passwords_hash_and_verify() {
        let hash = hash_password("correct horse".into()).await.unwrap();
        assert!(verify_password(hash.clone(), "correct horse".into()).await);
        assert!(!verify_password(hash, "wrong horse".into()).await);
        assert!(!verify_password("not a hash".into(), "x".into()).await);
    }
}
