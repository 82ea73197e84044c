//! `server open-data export --month YYYY-MM --dir DIR`: a month's two files written to a
//! folder, page by page, as the server serves them.

use std::io::Write;
use std::path::Path;

use futures_util::StreamExt;

use super::files::FileKind;
use super::month::Month;
use super::store::file;
use crate::store::Store;

pub async fn export(database_url: &str, month: &str, dir: &Path) -> Result<String, String> {
    let month = Month::parse(month)?;
    let store = Store::connect(database_url)
        .await
        .map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for kind in [FileKind::Records, FileKind::Table] {
        let path = dir.join(format!("tafl-{month}-{}", kind.name()));
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?,
        );
        let mut chunks = std::pin::pin!(file(store.clone(), month, kind));
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(|e| e.to_string())?;
            out.write_all(&chunk)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        out.flush()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path.display().to_string());
    }
    store.close().await;
    Ok(format!("wrote {}", written.join(" and ")))
}
