//! Playing the AI over real sockets: the AI seats move by themselves, legally, and the match
//! reaches its result.

mod common;

use common::{BACKENDS, Client, fresh_database, new_player, start};
use engine::MatchRng;
use engine::game::Seat;
use engine::registry::{GameTask, Hostable, with_game};
use protocol::{ClientMessage, MatchEvent, MatchId};

/// Plays a match against the AI from the socket's seat 0 with random legal moves, keeping a copy
/// of the game from every `acted` event; returns the result's reason and how many moves the AI
/// made. Only for games without chance or hidden information, whose copy needs no seed.
struct PlayOut<'a> {
    client: &'a mut Client,
    match_id: MatchId,
    variant: &'a str,
    seats: usize,
}

impl<'a> GameTask for PlayOut<'a> {
    type Output = std::pin::Pin<Box<dyn std::future::Future<Output = (String, usize)> + 'a>>;

    fn run<G: Hostable>(self) -> Self::Output {
        Box::pin(async move {
            let config = G::config(self.variant, self.seats).unwrap();
            let mut rng = MatchRng::from_seed(0);
            let mut game = G::new(&config, &mut rng).unwrap();
            let mut chooser = MatchRng::from_seed(7);
            let mut ai_moves = 0;
            loop {
                let me = Seat::new(0).unwrap();
                if game.to_act().contains(me) {
                    let actions = game.legal_actions(me);
                    let action = chooser.choose(&actions).unwrap().clone();
                    let text = game.action_text(&action);
                    let m = self.match_id;
                    self.client
                        .ok(|id| ClientMessage::Act {
                            id,
                            match_id: m,
                            seat: 0,
                            action: text,
                        })
                        .await;
                }
                let (_, event) = self
                    .client
                    .event_where(self.match_id, |e| {
                        matches!(e, MatchEvent::Acted { .. } | MatchEvent::Finished { .. })
                    })
                    .await;
                match event {
                    MatchEvent::Acted { seat, action, .. } => {
                        let action = game.parse_action(&action.unwrap()).unwrap();
                        game.play(Seat::new(usize::from(seat)).unwrap(), &action, &mut rng)
                            .expect("every move the server accepted is legal");
                        if seat != 0 {
                            ai_moves += 1;
                        }
                    }
                    MatchEvent::Finished { result } => return (result.reason, ai_moves),
                    _ => unreachable!(),
                }
            }
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_plays_whole_games_at_every_level() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(
            &url,
            &[
                "--ai-move-ms",
                "50",
                "--ws-messages-per-sec",
                "1000",
                "--ws-message-burst",
                "1000",
            ],
        )
        .await;
        let me = new_player(addr).await;
        let mut c = Client::connect(addr, &me.token).await;
        for (game, variant, level) in [
            ("tafl", "brandubh", 1),
            ("tafl", "brandubh", 3),
            ("fox-geese", "hala-tafl", 2),
            ("hanoi", "standard", 5),
        ] {
            let ack = c
                .ok(|id| ClientMessage::PlayAi {
                    id,
                    game: game.into(),
                    variant: Some(variant.into()),
                    seats: None,
                    level,
                    time_control: None,
                    rated: true,
                    seat: Some(0),
                })
                .await;
            let match_id = ack.match_id.unwrap();
            let task = PlayOut {
                client: &mut c,
                match_id,
                variant,
                seats: 2,
            };
            let (reason, ai_moves) = with_game(game, task).unwrap().await;
            assert!(
                ai_moves > 0,
                "{backend:?} {game} level {level}: the AI never moved"
            );
            assert!(!reason.is_empty());
            // The AI's account is rated in the pool like anyone.
            let board = common::get(addr, &format!("/api/leaderboard/{game}/{variant}")).await;
            let names: Vec<&str> = board["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["player"]["name"].as_str().unwrap())
                .collect();
            assert!(
                names.contains(&format!("ai-level-{level}").as_str()),
                "{names:?}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_levels_are_refused_outside_one_to_five() {
    let addr = start(&fresh_database(BACKENDS[0]).await, &[]).await;
    let me = new_player(addr).await;
    let mut c = Client::connect(addr, &me.token).await;
    c.refused(protocol::ErrorCode::BadRequest, |id| {
        ClientMessage::PlayAi {
            id,
            game: "tafl".into(),
            variant: None,
            seats: None,
            level: 6,
            time_control: None,
            rated: false,
            seat: None,
        }
    })
    .await;
}
