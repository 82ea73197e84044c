//! Session tokens: what a client is given, and the hash of it that is stored (a leaked
//! database holds no usable token).

use sha2::{Digest, Sha256};

/// A fresh session token (64 hex characters from 32 random bytes) and the hash that is stored.
pub fn new_token() -> (String, String) {
    let token = hex::encode(rand::random::<[u8; 32]>());
    let hash = token_hash(&token);
    (token, hash)
}

/// The hash of a token, as stored.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let (a, ha) = new_token();
        let (b, _) = new_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(token_hash(&a), ha);
        assert_ne!(a, ha);
    }
}
