//! `server`: run the match server. With no arguments it serves on 127.0.0.1:8080 with an SQLite
//! database file `tafl.db` in the working directory; see `--help` for every setting. SIGTERM or
//! Ctrl-C stops it gracefully (`shutdown.rs`).

use std::io::IsTerminal;

use clap::Parser;
use server::config::{AdminAction, Config, ExplorerAction, LogFormat, OpenDataAction, Operation};
use tracing_subscriber::EnvFilter;

/// Every move allocates many small, short-lived buffers (frames, JSON, channel messages);
/// mimalloc serves them with far less work than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    // Colour only for a person at a terminal: log files and collectors get plain text.
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal());
    match config.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    // Every socket is an open file: the soft limit goes up to the hard one, so that a common
    // default of 1024 does not cap the server at about a thousand sockets.
    if let Some(Operation::Explorer {
        action: ExplorerAction::Rebuild,
    }) = &config.command
    {
        return match server::explorer::store::rebuild(&config.database_url).await {
            Ok(done) => {
                println!("{done}");
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("server explorer rebuild: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    if let Some(Operation::OpenData {
        action: OpenDataAction::Export { month, dir },
    }) = &config.command
    {
        return match server::open_data::export::export(&config.database_url, month, dir).await {
            Ok(done) => {
                println!("{done}");
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("server open-data export: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    if let Some(Operation::Admin { action }) = &config.command {
        let (name, admin) = match action {
            AdminAction::Grant { name } => (name, true),
            AdminAction::Revoke { name } => (name, false),
        };
        return match server::accounts::moderation::set_admin(&config.database_url, name, admin)
            .await
        {
            Ok(done) => {
                println!("{done}");
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("server admin: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(open_files) => tracing::debug!(open_files, "open-file limit"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open-file limit"),
    }
    let running = match server::start(config).await {
        Ok(running) => running,
        Err(e) => {
            tracing::error!(error = %e, "could not start");
            return std::process::ExitCode::FAILURE;
        }
    };
    let shutdown = running.shutdown.clone();
    tokio::spawn(async move {
        server::shutdown::signal().await;
        tracing::info!("shutdown requested");
        shutdown.trigger();
    });
    match running.task.await {
        Ok(Ok(())) => std::process::ExitCode::SUCCESS,
        Ok(Err(e)) => {
            tracing::error!(error = %e, "server stopped");
            std::process::ExitCode::FAILURE
        }
        Err(e) => {
            tracing::error!(error = %e, "server task failed");
            std::process::ExitCode::FAILURE
        }
    }
}
