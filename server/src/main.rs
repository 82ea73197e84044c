//! `server`: run the match server. With no arguments it serves on 127.0.0.1:8080 with an SQLite
//! database file `tafl.db` in the working directory; see `--help` for every setting.

use clap::Parser;
use server::config::{Config, LogFormat};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt().with_env_filter(filter);
    match config.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    let running = match server::start(config).await {
        Ok(running) => running,
        Err(e) => {
            tracing::error!(error = %e, "could not start");
            return std::process::ExitCode::FAILURE;
        }
    };
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
