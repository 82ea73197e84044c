//! A player: an account (registered, guest or one of the AI's), as the rest of the server sees
//! it.

use protocol::{PlayerId, PlayerRef};

/// Names of the AI's accounts start with this, and no human's may.
pub const AI_PREFIX: &str = "ai-";

/// The AI level an account plays at, from its name (`ai-level-3`).
pub fn ai_level(name: &str) -> Option<engine::ai::Level> {
    let level = name
        .strip_prefix(AI_PREFIX)?
        .strip_prefix("level-")?
        .parse()
        .ok()?;
    engine::ai::Level::new(level)
}

/// A player's account. Between nodes it travels without its password hash.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    #[serde(skip)]
    pub password_hash: Option<String>,
    pub guest: bool,
}

impl Player {
    pub fn public(&self) -> PlayerRef {
        PlayerRef {
            id: self.id,
            name: self.name.clone(),
            guest: self.guest,
        }
    }
}
