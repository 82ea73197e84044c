//! The server's one error type: a stable protocol reason (with its parameters and coarse code)
//! and an English sentence. It becomes an `error` message on a socket or a JSON body with the
//! matching status over HTTP.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use protocol::{ErrorBody, ErrorCode, ErrorReason};

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ApiError {
    /// The reason's code, kept beside it for the many callers that act on the code alone.
    pub code: ErrorCode,
    pub reason: ErrorReason,
    pub message: String,
    /// For `rate_limited`: whole seconds until a retry may succeed, sent over HTTP as the
    /// `Retry-After` header.
    pub retry_after: Option<u64>,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(reason: ErrorReason, message: impl Into<String>) -> ApiError {
        ApiError {
            code: reason.code(),
            reason,
            message: message.into(),
            retry_after: None,
        }
    }

    /// A `rate_limited` error: try again in `wait` (rounded up to a whole second, as
    /// `Retry-After` counts), for the reason `reason` makes of those seconds.
    pub fn rate_limited(
        reason: impl FnOnce(u64) -> ErrorReason,
        message: impl Into<String>,
        wait: Duration,
    ) -> ApiError {
        let seconds = wait.as_millis().div_ceil(1000).max(1) as u64;
        ApiError {
            retry_after: Some(seconds),
            ..ApiError::new(
                reason(seconds),
                format!("{}; try again in {seconds} s", message.into()),
            )
        }
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code,
            message: self.message.clone(),
            reason: self.reason.clone(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self.code {
            ErrorCode::Malformed
            | ErrorCode::UnknownType
            | ErrorCode::BadRequest
            | ErrorCode::HelloFirst
            | ErrorCode::UnsupportedVersion
            | ErrorCode::IllegalAction
            | ErrorCode::NotYourTurn
            | ErrorCode::GameOver => StatusCode::BAD_REQUEST,
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::Conflict => StatusCode::CONFLICT,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        crate::metrics::error_sent(self.code, crate::metrics::Via::Http);
        let mut response = (self.status(), Json(self.body())).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// A JSON `not_found` for a path under `/api/` that names no endpoint (axum's own answer is
/// an empty body).
pub async fn no_endpoint(uri: Uri) -> ApiError {
    ApiError::new(
        ErrorReason::NotFound,
        format!("there is no endpoint {}", uri.path()),
    )
}

/// A JSON answer for a known path asked with a method it does not serve (axum still adds the
/// `Allow` header).
pub async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let error = ApiError::new(
        ErrorReason::BadRequest,
        format!("{} does not serve {method}", uri.path()),
    );
    let mut response = error.into_response();
    *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    response
}
