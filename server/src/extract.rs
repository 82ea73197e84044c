//! Request extractors every REST wing uses, each of whose rejections is one of our errors: a JSON
//! body, a numeric id from the path, and a page of a list.

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::StatusCode;
use protocol::ErrorReason;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, ApiResult};

/// A JSON body whose every rejection is one of our errors.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> ApiResult<Body<T>> {
        // Read as any JSON first, so that a body that is not an object is told apart (malformed)
        // from an object with bad fields (bad_request).
        match Json::<serde_json::Value>::from_request(req, state).await {
            Ok(Json(value @ serde_json::Value::Object(_))) => serde_json::from_value(value)
                .map(Body)
                .map_err(|e| ApiError::new(ErrorReason::BadRequest, e.to_string())),
            Ok(Json(_)) => Err(ApiError::new(
                ErrorReason::Malformed,
                "the body is not a JSON object",
            )),
            Err(JsonRejection::JsonSyntaxError(e)) => {
                Err(ApiError::new(ErrorReason::Malformed, e.body_text()))
            }
            Err(JsonRejection::BytesRejection(e))
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                Err(ApiError::new(
                    ErrorReason::TooLarge,
                    "the request body is too large",
                ))
            }
            Err(e) => Err(ApiError::new(ErrorReason::BadRequest, e.body_text())),
        }
    }
}

/// A numeric id from the path. Anything else names nothing here: `not_found`, as an `ErrorBody`
/// like every other error (axum's own rejection is plain text).
pub struct Id(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> ApiResult<Id> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::new(ErrorReason::BadRequest, e.body_text()))?;
        raw.parse().map(Id).map_err(|_| {
            ApiError::new(
                ErrorReason::NotFound,
                format!("there is nothing numbered '{raw}'"),
            )
        })
    }
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Page {
    /// 1-based; 1 when absent.
    page: Option<u32>,
    /// Entries per page, 1 to 200; 50 when absent.
    per_page: Option<u32>,
}

impl Page {
    /// The page asked for (1-based) and its size, from the query.
    pub fn read(query: Result<Query<Page>, QueryRejection>) -> ApiResult<(u32, u32)> {
        let Query(page) =
            query.map_err(|e| ApiError::new(ErrorReason::BadRequest, e.body_text()))?;
        Ok((
            page.page.unwrap_or(1).max(1),
            page.per_page.unwrap_or(50).clamp(1, 200),
        ))
    }
}
