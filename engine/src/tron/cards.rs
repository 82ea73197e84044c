//! The cards: the three regular movement cards every player always holds, the special deck,
//! a hand of special cards, and the Row and Column piles that place flags and light-cycles.

use std::fmt;

use super::board::{MAX_SIZE, Turn};
use crate::rng::MatchRng;

/// A special card. The order is the order of resolution within a round.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Special {
    CutTail,
    RetractTail,
    Dash,
    UberDash,
    Crusher,
    OverDrive,
}

impl Special {
    pub const ALL: [Special; 6] = [
        Special::CutTail,
        Special::RetractTail,
        Special::Dash,
        Special::UberDash,
        Special::Crusher,
        Special::OverDrive,
    ];

    /// How many of this card the special deck holds.
    pub const fn in_deck(self) -> u8 {
        match self {
            Special::Dash | Special::UberDash | Special::Crusher => 3,
            Special::CutTail | Special::RetractTail | Special::OverDrive => 1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Special::CutTail => "cut-tail",
            Special::RetractTail => "retract-tail",
            Special::Dash => "dash",
            Special::UberDash => "uber-dash",
            Special::Crusher => "crusher",
            Special::OverDrive => "over-drive",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Special {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A card a player may play in a round: a regular movement card (always in hand) or a special.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Card {
    Regular(Turn),
    Special(Special),
}

impl Card {
    /// Every card, regular ones first.
    pub const ALL: [Card; 9] = [
        Card::Regular(Turn::Forward),
        Card::Regular(Turn::Left),
        Card::Regular(Turn::Right),
        Card::Special(Special::CutTail),
        Card::Special(Special::RetractTail),
        Card::Special(Special::Dash),
        Card::Special(Special::UberDash),
        Card::Special(Special::Crusher),
        Card::Special(Special::OverDrive),
    ];

    /// When in the round the card is enacted.
    pub const fn phase(self) -> Phase {
        match self {
            Card::Regular(_) => Phase::Regular,
            Card::Special(special) => Phase::Special(special),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Card::Regular(turn) => turn.name(),
            Card::Special(special) => special.name(),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A step of a round's resolution: the regular movement cards first, then each special card in
/// the seed's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    Regular,
    Special(Special),
}

impl Phase {
    /// The order of resolution: regular movement, cut tail, retract tail, dash, uber-dash,
    /// crusher, over-drive.
    pub const ORDER: [Phase; 7] = [
        Phase::Regular,
        Phase::Special(Special::CutTail),
        Phase::Special(Special::RetractTail),
        Phase::Special(Special::Dash),
        Phase::Special(Special::UberDash),
        Phase::Special(Special::Crusher),
        Phase::Special(Special::OverDrive),
    ];

    /// The position of the phase in [`Phase::ORDER`].
    pub const fn index(self) -> usize {
        match self {
            Phase::Regular => 0,
            Phase::Special(special) => 1 + special.index(),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Phase::Regular => "regular movement",
            Phase::Special(special) => special.name(),
        }
    }

    /// Whether the cards of this phase move light-cycles.
    pub const fn drives(self) -> bool {
        matches!(
            self,
            Phase::Regular | Phase::Special(Special::CutTail | Special::Dash | Special::UberDash)
        )
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Phase {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match self {
            Phase::Regular => "regular",
            Phase::Special(special) => special.name(),
        })
    }
}

/// The special cards a player holds (the three regular cards are always in hand and not
/// counted). Only the count is known to the other players.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; 6],
}

impl Hand {
    /// A hand holding exactly these cards.
    pub fn of(cards: &[Special]) -> Hand {
        let mut hand = Hand::default();
        for &card in cards {
            hand.add(card);
        }
        hand
    }

    pub fn count(&self, card: Special) -> u8 {
        self.counts[card.index()]
    }

    /// How many special cards the hand holds.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&n| usize::from(n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every card held, one entry per copy, in [`Special::ALL`] order.
    pub fn cards(self) -> impl Iterator<Item = Special> {
        Special::ALL
            .into_iter()
            .flat_map(move |card| std::iter::repeat_n(card, usize::from(self.count(card))))
    }

    pub(crate) fn add(&mut self, card: Special) {
        self.counts[card.index()] += 1;
    }

    /// Takes one copy of `card` out of the hand; false if there is none.
    pub(crate) fn remove(&mut self, card: Special) -> bool {
        let count = &mut self.counts[card.index()];
        if *count == 0 {
            return false;
        }
        *count -= 1;
        true
    }
}

impl serde::Serialize for Hand {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.cards())
    }
}

/// The whole special deck: 3 dash, 3 uber-dash, 3 crusher, 1 cut tail, 1 retract tail,
/// 1 over-drive, in [`Special::ALL`] order.
pub(crate) fn full_deck() -> Vec<Special> {
    Special::ALL
        .into_iter()
        .flat_map(|card| std::iter::repeat_n(card, usize::from(card.in_deck())))
        .collect()
}

/// The Row (or Column) cards, one per row, shuffled. Drawing takes a uniformly random card
/// among those left, which is the same as shuffling the pile once and taking the top card; an
/// empty pile is gathered and shuffled again.
pub(crate) struct Pile {
    cards: [u8; MAX_SIZE as usize],
    size: u8,
    left: u8,
}

impl Pile {
    /// A full pile of the cards `0..size` (0-based row or column numbers).
    pub(crate) fn new(size: u8) -> Pile {
        let mut cards = [0; MAX_SIZE as usize];
        for (i, card) in cards.iter_mut().enumerate() {
            *card = i as u8;
        }
        Pile {
            cards,
            size,
            left: size,
        }
    }

    pub(crate) fn draw(&mut self, rng: &mut MatchRng) -> u8 {
        if self.left == 0 {
            self.left = self.size;
        }
        let pick = rng.below(u64::from(self.left)) as usize;
        self.left -= 1;
        self.cards.swap(pick, usize::from(self.left));
        self.cards[usize::from(self.left)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_has_twelve_cards() {
        let deck = full_deck();
        assert_eq!(deck.len(), 12);
        let hand = Hand::of(&deck);
        assert_eq!(hand.count(Special::Dash), 3);
        assert_eq!(hand.count(Special::OverDrive), 1);
        assert_eq!(hand.cards().collect::<Vec<_>>(), deck);
    }

    #[test]
    fn phases_follow_the_seed_order() {
        for (i, phase) in Phase::ORDER.into_iter().enumerate() {
            assert_eq!(phase.index(), i);
        }
        assert!(Phase::Regular < Phase::Special(Special::CutTail));
        assert!(Phase::Special(Special::Crusher) < Phase::Special(Special::OverDrive));
    }

    #[test]
    fn a_pile_deals_every_card_once_before_repeating() {
        let mut rng = MatchRng::from_seed(3);
        let mut pile = Pile::new(12);
        let mut first: Vec<u8> = (0..12).map(|_| pile.draw(&mut rng)).collect();
        first.sort();
        assert_eq!(first, (0..12).collect::<Vec<_>>());
        assert!(pile.draw(&mut rng) < 12);
    }
}
