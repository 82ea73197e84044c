//! How often a seat may ask for a takeback. Each request put to the other players is an event
//! for every follower of the match and an interruption for the opponent, so that asking and
//! declining could go round and round at no cost to the asker. A seat whose request was
//! declined asks again only once another player has acted since, and has at most
//! [`MOST_DECLINED`] requests declined a game. Each seat keeps its [`Asks`], in memory, as the
//! room keeps the request standing.

/// The requests a seat may have declined in a game. Three leave room for a few slips a game,
/// and an opponent who has declined three times has answered for the game. Requests accepted
/// are not counted: each is what every player wanted.
pub const MOST_DECLINED: u8 = 3;

/// One seat's declined requests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asks {
    declined: u8,
    /// After a decline, until another player acts: the number of actions in play then.
    waiting_from: Option<usize>,
}

impl Asks {
    /// Whether the seat may ask now, given the actions in play (seat, action) and which seats
    /// are the asker's: the refusal says why not.
    pub fn may_ask(&self, log: &[(u8, String)], mine: impl Fn(u8) -> bool) -> Result<(), String> {
        if self.declined >= MOST_DECLINED {
            return Err(format!(
                "{MOST_DECLINED} of your takebacks were declined in this match: ask no more"
            ));
        }
        let Some(from) = self.waiting_from else {
            return Ok(());
        };
        // Fewer actions than then: a takeback since has changed the game, which is enough.
        let other_acted = log
            .get(from..)
            .is_none_or(|since| since.iter().any(|&(seat, _)| !mine(seat)));
        let why = "your takeback was declined: ask again once another player has moved";
        other_acted.then_some(()).ok_or_else(|| why.to_string())
    }

    /// The seat's request was declined with `actions` actions in play.
    pub fn declined(&mut self, actions: usize) {
        self.declined += 1;
        self.waiting_from = Some(actions);
    }

    /// A takeback was carried out: the game the decline was about is no longer the one played.
    pub fn game_changed(&mut self) {
        self.waiting_from = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(seats: &[u8]) -> Vec<(u8, String)> {
        seats.iter().map(|&s| (s, format!("move by {s}"))).collect()
    }

    #[test]
    fn a_declined_seat_waits_for_another_seat_to_act() {
        let mine = |seat| seat == 0;
        let mut asks = Asks::default();
        assert_eq!(asks.may_ask(&log(&[0]), mine), Ok(()));
        asks.declined(1);
        assert!(asks.may_ask(&log(&[0]), mine).is_err());
        assert!(asks.may_ask(&log(&[0, 0]), mine).is_err(), "its own action");
        assert_eq!(asks.may_ask(&log(&[0, 1]), mine), Ok(()));
        assert_eq!(asks.may_ask(&log(&[]), mine), Ok(()), "a takeback since");
        asks.game_changed();
        assert_eq!(asks.may_ask(&log(&[0]), mine), Ok(()));
    }

    #[test]
    fn three_declines_end_the_asking() {
        let mut asks = Asks::default();
        for n in 1..=MOST_DECLINED {
            asks.declined(n as usize);
        }
        let why = asks.may_ask(&log(&[0, 1, 0, 1]), |s| s == 0).unwrap_err();
        assert!(why.contains("3 of your takebacks"), "{why}");
    }
}
