//! Challenges to a named player over the socket (`challenge`, `answer_challenge`,
//! `withdraw_challenge`). A challenge is stored, so that a server restart does not lose it: it
//! stands until it is accepted, declined, withdrawn or expires (`--challenge-secs`), whichever
//! comes first, and both players are told of each step on every socket of theirs
//! (`challenge_open`, `challenge_ended`), and of the challenges standing when a socket says
//! hello. Accepted, it becomes a match with both players seated (`super::start`).

use std::sync::Arc;
use std::time::Duration;

use protocol::{
    Ack, ChallengeEnd, ChallengeId, ChallengeSpec, ErrorReason, MatchId, PlayerId, ServerMessage,
};
use tokio::sync::{Mutex, Notify};

use super::store::{NewChallenge, StoredChallenge};
use crate::accounts::player::Player;
use crate::cluster::{Cluster, Singleton};
use crate::error::{ApiError, ApiResult};
use crate::limits::Limits;
use crate::matches::NewMatch;
use crate::matches::registry::Rooms;
use crate::security::{Kind, SecurityLog};
use crate::shutdown::Shutdown;
use crate::sockets::{Fanout, Outbox, Sockets, frame};
use crate::store::Store;

/// The least the expiry waits between two looks, so that a database that fails to forget an
/// expired challenge is not asked again at once, over and over.
const EXPIRY_PAUSE: Duration = Duration::from_millis(100);

/// What challenges need of the server: their storage, where matches open, the sockets their
/// players are told on, the other nodes (who is online there, who runs the expiry), the rate
/// limit, the security log, the stop signal, and how long a challenge stands.
pub struct ChallengeContext {
    pub store: Store,
    pub rooms: Arc<Rooms>,
    pub sockets: Arc<Sockets>,
    pub cluster: Cluster,
    pub limits: Arc<Limits>,
    pub security: Arc<SecurityLog>,
    pub shutdown: Shutdown,
    pub lasts_ms: i64,
}

pub struct Challenges {
    context: ChallengeContext,
    /// Held through each change to a challenge, so that an answer, a withdrawal and the expiry
    /// never both end one, nor an acceptance open two matches.
    desk: Mutex<()>,
    /// Wakes the expiry for a new challenge, which may expire before the one it waits for.
    made: Notify,
}

impl Challenges {
    pub fn new(context: ChallengeContext) -> Challenges {
        Challenges {
            context,
            desk: Mutex::new(()),
            made: Notify::new(),
        }
    }

    /// Whether `player` has a socket open (that said hello) on any node.
    async fn online(&self, player: PlayerId) -> ApiResult<bool> {
        let context = &self.context;
        Ok(context
            .cluster
            .online_anywhere(&context.sockets, player)
            .await?)
    }

    /// `from` challenges a player. Everything is checked before anything is stored, and a refusal
    /// says why; the rate limit counts the challenges that pass those checks.
    pub async fn issue(&self, from: &Player, ask: ChallengeSpec) -> ApiResult<Ack> {
        let now = crate::clock::now_ms();
        // The match first: a game two can play, its variant and clock, and the challenger's seat.
        let spec = NewMatch {
            takebacks: ask.takebacks,
            ..NewMatch::new(
                &ask.game,
                ask.variant.as_deref(),
                Some(2),
                ask.rated,
                ask.clock,
                now,
            )?
        }
        .in_two_games(ask.two_games)?;
        let seat = spec.seat(ask.seat.unwrap_or(0))?;
        crate::policy::may_play(from, spec.rated)?;
        let store = &self.context.store;
        let to = store.reachable_player(ask.player).await?.ok_or_else(|| {
            ApiError::new(
                ErrorReason::PlayerNotFound { id: ask.player.0 },
                format!("there is no player {}", ask.player.0),
            )
        })?;
        let policy = store.challenge_policy(to.id).await?;
        let follows = store.follows(to.id, from.id).await?;
        super::may_challenge(from, &to, policy, follows)?;
        if spec.rated && to.guest {
            return Err(ApiError::new(
                ErrorReason::ChallengeGuestRated {
                    name: to.name.clone(),
                },
                format!("{} is a guest, and guests play casual games only", to.name),
            ));
        }
        if !self.online(to.id).await? {
            return Err(ApiError::new(
                ErrorReason::PlayerOffline {
                    name: to.name.clone(),
                },
                format!("{} is not online: challenge them when they are", to.name),
            ));
        }
        if let Err(e) = self.context.limits.challenge(from.id) {
            let account = Some(from.name.as_str());
            let security = &self.context.security;
            security.record(Kind::RateLimited, account, None, "too many challenges");
            return Err(e);
        }
        let _one = self.desk.lock().await;
        let new = NewChallenge {
            from,
            to: &to,
            game: &spec.game,
            variant: &spec.variant,
            seat,
            rated: spec.rated,
            takebacks: spec.takebacks,
            clock: spec.clock,
            two_games: spec.two_games,
            created_ms: now,
            expires_ms: now + self.context.lasts_ms,
        };
        let id = store.create_challenge(&new).await?;
        let challenge = StoredChallenge {
            id,
            from: from.clone(),
            to: to.clone(),
            game: spec.game.clone(),
            variant: spec.variant.clone(),
            seat,
            rated: spec.rated,
            takebacks: spec.takebacks,
            clock: spec.clock,
            two_games: spec.two_games,
            expires_ms: new.expires_ms,
        };
        tracing::info!(
            challenge = id.0,
            from = from.id.0,
            to = to.id.0,
            "challenge made"
        );
        self.tell_both(&challenge, &opened(&challenge));
        self.made.notify_one();
        Ok(Ack {
            challenge_id: Some(id),
            ..Ack::default()
        })
    }

    /// The challenge `id`, if it stands now.
    async fn standing(&self, id: ChallengeId) -> ApiResult<StoredChallenge> {
        let now = crate::clock::now_ms();
        let challenge = self.context.store.challenge(id, now).await?;
        challenge.ok_or_else(|| {
            ApiError::new(
                ErrorReason::ChallengeNotFound,
                format!(
                    "there is no challenge {}: it was answered, withdrawn, or it expired",
                    id.0
                ),
            )
        })
    }

    /// The challenged player answers. Accepted, the match opens with both players seated and is
    /// acked with its id and the player's seat; a match that cannot be opened leaves the challenge
    /// standing.
    pub async fn answer(&self, player: &Player, id: ChallengeId, accept: bool) -> ApiResult<Ack> {
        let _one = self.desk.lock().await;
        let challenge = self.standing(id).await?;
        if challenge.to.id != player.id {
            let (reason, why) = match challenge.from.id == player.id {
                true => (
                    ErrorReason::ChallengeYours,
                    "you made this challenge: withdraw it instead",
                ),
                false => (
                    ErrorReason::ChallengeNotYours,
                    "this challenge is not yours to answer",
                ),
            };
            return Err(ApiError::new(reason, why));
        }
        if !accept {
            self.end(&challenge, ChallengeEnd::Declined, None).await;
            return Ok(Ack::default());
        }
        // A challenger who has gone would find their clock running in a match they never saw.
        if !self.online(challenge.from.id).await? {
            return Err(ApiError::new(
                ErrorReason::PlayerOffline {
                    name: challenge.from.name.clone(),
                },
                format!("{} is not online now", challenge.from.name),
            ));
        }
        let spec = NewMatch {
            takebacks: challenge.takebacks,
            ..NewMatch::new(
                &challenge.game,
                Some(&challenge.variant),
                Some(2),
                challenge.rated,
                challenge.clock,
                crate::clock::now_ms(),
            )?
        }
        .in_two_games(challenge.two_games)?;
        let (theirs, mine) = (challenge.seat, 1 - challenge.seat);
        let seating = vec![
            (theirs, challenge.from.clone()),
            (mine, challenge.to.clone()),
        ];
        let match_id = super::start(&self.context.rooms, spec, seating).await?;
        self.end(&challenge, ChallengeEnd::Accepted, Some(match_id))
            .await;
        Ok(Ack {
            match_id: Some(match_id),
            seats: vec![mine],
            ..Ack::default()
        })
    }

    /// The challenger takes a challenge back.
    pub async fn withdraw(&self, player: PlayerId, id: ChallengeId) -> ApiResult<Ack> {
        let _one = self.desk.lock().await;
        let challenge = self.standing(id).await?;
        if challenge.from.id != player {
            return Err(ApiError::new(
                ErrorReason::ChallengeNotYours,
                "only its challenger may withdraw a challenge",
            ));
        }
        self.end(&challenge, ChallengeEnd::Withdrawn, None).await;
        Ok(Ack::default())
    }

    /// Tells a socket that just said hello of the challenges its player made or was sent that
    /// stand, as when they were made; not those whose time is up, which the expiry has yet to end
    /// when the server was down as they expired.
    pub async fn greet(&self, player: PlayerId, outbox: &Outbox) -> ApiResult<()> {
        let now = crate::clock::now_ms();
        for challenge in self.context.store.challenges_of(player, now).await? {
            let _ = outbox.try_send(opened(&challenge));
        }
        Ok(())
    }

    /// Ends a challenge and tells both players. Ending is forgetting it: should that fail, it ends
    /// for its players all the same (an accepted one has its match), and the expiry forgets it
    /// later.
    async fn end(
        &self,
        challenge: &StoredChallenge,
        reason: ChallengeEnd,
        match_id: Option<MatchId>,
    ) {
        if let Err(e) = self.context.store.delete_challenge(challenge.id).await {
            tracing::error!(challenge = challenge.id.0, error = %e, "could not forget a challenge");
        }
        tracing::info!(challenge = challenge.id.0, ?reason, "challenge ended");
        let ended = frame(&ServerMessage::ChallengeEnded {
            challenge_id: challenge.id,
            reason,
            match_id,
        });
        self.tell_both(challenge, &ended);
    }

    fn tell_both(&self, challenge: &StoredChallenge, frame: &crate::sockets::Frame) {
        for player in [challenge.from.id, challenge.to.id] {
            self.context.sockets.send(Fanout::Player { player }, frame);
        }
    }
}

/// Ends the challenges whose time is up, each when it comes, until the server stops (in a
/// cluster, on the node that runs the housekeeping).
pub async fn expire(desk: Arc<Challenges>) {
    let context = &desk.context;
    let stopping = context.shutdown.stopped();
    tokio::pin!(stopping);
    loop {
        let next = match context.store.next_challenge_expiry().await {
            Ok(next) => next,
            Err(e) => {
                tracing::warn!(error = %e, "could not read when the next challenge expires");
                Some(crate::clock::now_ms() + 1000)
            }
        };
        let due = async {
            match next {
                Some(at) => {
                    let wait = (at - crate::clock::now_ms()).max(0) as u64;
                    tokio::time::sleep(Duration::from_millis(wait).max(EXPIRY_PAUSE)).await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = &mut stopping => return,
            () = desk.made.notified() => continue,
            () = due => {}
        }
        // In a cluster, the node that runs the housekeeping ends them.
        if !context.cluster.leads(Singleton::Housekeeping) {
            continue;
        }
        let _one = desk.desk.lock().await;
        match context
            .store
            .expired_challenges(crate::clock::now_ms())
            .await
        {
            Ok(expired) => {
                for challenge in expired {
                    desk.end(&challenge, ChallengeEnd::Expired, None).await;
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not list the expired challenges"),
        }
    }
}

fn opened(challenge: &StoredChallenge) -> crate::sockets::Frame {
    frame(&ServerMessage::ChallengeOpen {
        challenge: challenge.wire(),
    })
}
