//! The server's one error type: a stable protocol error code and a sentence. It becomes an
//! `error` message on a socket or a JSON body with the matching status over HTTP.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use protocol::{ErrorBody, ErrorCode};

use crate::store::StoreError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
        }
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code,
            message: self.message.clone(),
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

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Conflict(what) => ApiError::new(ErrorCode::Conflict, what),
            StoreError::Database(e) => {
                // The details stay in the log; clients learn only that it was our fault.
                tracing::error!(error = %e, "database error");
                ApiError::new(
                    ErrorCode::Internal,
                    "the server could not complete the request",
                )
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), Json(self.body())).into_response()
    }
}
