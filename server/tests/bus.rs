//! The messages between nodes over a real PostgreSQL (LISTEN/NOTIFY): sent to one node, they
//! arrive in the order they were sent, whole, including those past NOTIFY's 8,000-byte limit
//! (which travel through a table); a node does not receive what is sent to another, nor
//! anything once it has stopped listening (it left the cluster).

mod common;

use std::time::Duration;

use common::{Backend, fresh_database};
use server::cluster::bus::Bus;
use server::cluster::wire::Wire;
use server::store::Store;
use tokio::sync::mpsc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_arrive_in_order_and_whole_however_long() {
    let url = fresh_database(Backend::Postgres).await;
    let store = Store::connect(&url).await.unwrap();
    let (here, elsewhere) = (
        store
            .add_node("here", &server::cluster::process::Process::current(), 1)
            .await
            .unwrap(),
        store
            .add_node(
                "elsewhere",
                &server::cluster::process::Process::current(),
                1,
            )
            .await
            .unwrap(),
    );
    let (heard, mut received) = mpsc::unbounded_channel();
    let bus = Bus::start(&url, here, store.clone(), move |wire| {
        let _ = heard.send(wire);
    });
    // Its LISTEN is in place before anything is sent.
    tokio::time::sleep(Duration::from_millis(500)).await;

    let long = "x".repeat(20_000);
    let sent: Vec<Vec<String>> = (0..60)
        .map(|i| match i % 10 {
            3 => vec![format!("{i}:{long}")],
            _ => vec![format!("{i}")],
        })
        .collect();
    for (i, frames) in sent.iter().enumerate() {
        bus.send(
            Some(here),
            &Wire::Frames {
                conn: i as u64,
                frames: frames.clone(),
            },
        );
        // One for another node now and then, which this one must not hear.
        if i % 7 == 0 {
            let other = Wire::Frames {
                conn: 999,
                frames: vec!["not for here".into()],
            };
            bus.send(Some(elsewhere), &other);
        }
    }
    for (i, frames) in sent.iter().enumerate() {
        let wire = tokio::time::timeout(common::PATIENCE, received.recv())
            .await
            .expect("every message arrives")
            .unwrap();
        match wire {
            Wire::Frames { conn, frames: got } => {
                assert_eq!(conn, i as u64, "in the order sent");
                assert_eq!(&got, frames, "whole");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    let more = tokio::time::timeout(Duration::from_millis(300), received.recv()).await;
    assert!(more.is_err(), "nothing else arrived: {more:?}");

    // Once it stops listening, the handler is let go: nothing more is heard.
    bus.stop_listening().await;
    let late = Wire::Frames {
        conn: 1000,
        frames: vec!["too late".into()],
    };
    bus.send(Some(here), &late);
    bus.flush().await;
    let after = tokio::time::timeout(common::PATIENCE, received.recv()).await;
    assert!(
        matches!(after, Ok(None)),
        "the listener ended and heard nothing more: {after:?}"
    );
}
