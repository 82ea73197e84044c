//! The cheapest durable append PostgreSQL offers, for the durable relay: frames wait in one
//! queue, and each of two writers takes everything waiting, stores it as one row in one
//! statement (a group commit), and only then lets the senders go on. Nothing is parsed, and the
//! table has no index but its key, so no match server can store a move for less on the same
//! machine and database.

use std::sync::Arc;

use sqlx::Connection;
use sqlx::postgres::PgConnection;
use tokio::sync::{Mutex, mpsc, oneshot};

use crate::Result;
use crate::target::loopback_url;

/// Frames one writer takes at most at once.
const MOST_PER_ROW: usize = 1024;

/// Writers at work at once: while one commits, the next row fills.
const WRITERS: usize = 2;

type Append = (String, oneshot::Sender<()>);

/// A table of rows of frames in a loopback PostgreSQL database.
pub struct Journal {
    appends: mpsc::UnboundedSender<Append>,
}

impl Journal {
    /// Connects to a loopback PostgreSQL URL and creates the table if it is missing.
    pub async fn open(url: &str) -> Result<Journal> {
        loopback_url(url, &["postgres", "postgresql"])?;
        let mut connections = Vec::with_capacity(WRITERS);
        for _ in 0..WRITERS {
            connections.push(PgConnection::connect(url).await?);
        }
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS relay_journal (id BIGSERIAL PRIMARY KEY, frames TEXT NOT NULL)",
        )
        .execute(&mut connections[0])
        .await?;
        let (appends, waiting) = mpsc::unbounded_channel();
        let waiting = Arc::new(Mutex::new(waiting));
        for connection in connections {
            tokio::spawn(write_rows(connection, waiting.clone()));
        }
        Ok(Journal { appends })
    }

    /// Stores a frame; returns once it is committed, or `false` if it could not be.
    pub async fn append(&self, frame: String) -> bool {
        let (done, stored) = oneshot::channel();
        self.appends.send((frame, done)).is_ok() && stored.await.is_ok()
    }
}

async fn write_rows(
    mut connection: PgConnection,
    waiting: Arc<Mutex<mpsc::UnboundedReceiver<Append>>>,
) {
    let mut batch = Vec::with_capacity(MOST_PER_ROW);
    loop {
        if waiting
            .lock()
            .await
            .recv_many(&mut batch, MOST_PER_ROW)
            .await
            == 0
        {
            return;
        }
        let frames: Vec<&str> = batch.iter().map(|(frame, _)| frame.as_str()).collect();
        let stored = sqlx::query("INSERT INTO relay_journal (frames) VALUES ($1)")
            .bind(frames.join("\n"))
            .execute(&mut connection)
            .await
            .is_ok();
        for (_, done) in batch.drain(..) {
            // Dropping `done` unanswered tells the sender that its frame was not stored.
            if stored {
                let _ = done.send(());
            }
        }
    }
}
