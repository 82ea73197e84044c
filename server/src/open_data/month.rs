//! A calendar month in UTC, as the open data files are cut: its name (`2026-11`) and its span in
//! milliseconds since the Unix epoch. Pure.

use time::{Date, Month as CalendarMonth, OffsetDateTime, Time};

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Month {
    year: i32,
    month: CalendarMonth,
}

impl Month {
    /// Reads `YYYY-MM`.
    pub fn parse(text: &str) -> Result<Month, String> {
        let bad = || format!("'{text}' is no month: write it as YYYY-MM, as 2026-11");
        let (year, month) = text.split_once('-').ok_or_else(bad)?;
        if year.len() != 4 || month.len() != 2 {
            return Err(bad());
        }
        let year: i32 = year.parse().map_err(|_| bad())?;
        let month: u8 = month.parse().map_err(|_| bad())?;
        let month = CalendarMonth::try_from(month).map_err(|_| bad())?;
        Ok(Month { year, month })
    }

    /// The month an instant falls in.
    pub fn of_ms(ms: i64) -> Month {
        let at = OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
            .unwrap_or(OffsetDateTime::UNIX_EPOCH);
        Month {
            year: at.year(),
            month: at.month(),
        }
    }

    /// Its first millisecond.
    pub fn start_ms(self) -> i64 {
        let first = Date::from_calendar_date(self.year, self.month, 1).expect("the 1st exists");
        first
            .with_time(Time::MIDNIGHT)
            .assume_utc()
            .unix_timestamp()
            * 1000
    }

    pub fn next(self) -> Month {
        match self.month {
            CalendarMonth::December => Month {
                year: self.year + 1,
                month: CalendarMonth::January,
            },
            month => Month {
                year: self.year,
                month: month.next(),
            },
        }
    }

    /// Its span: from its first millisecond to the next month's, not included.
    pub fn span_ms(self) -> (i64, i64) {
        (self.start_ms(), self.next().start_ms())
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year, u8::from(self.month))
    }
}

/// An instant as an ISO 8601 UTC time to the second (`2026-11-28T10:00:00Z`).
pub fn utc(ms: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_reads_and_writes_as_yyyy_mm() {
        let m = Month::parse("2026-11").unwrap();
        assert_eq!(m.to_string(), "2026-11");
        for bad in [
            "2026-13", "2026-1", "26-11", "2026/11", "", "2026-00", "abcd-ef",
        ] {
            assert!(Month::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_month_spans_its_days_in_utc() {
        let november = Month::parse("2026-11").unwrap();
        let (start, end) = november.span_ms();
        assert_eq!(utc(start), "2026-11-01T00:00:00Z");
        assert_eq!(utc(end), "2026-12-01T00:00:00Z");
        assert_eq!(Month::of_ms(end - 1), november);
        assert_eq!(Month::of_ms(end), november.next());
        let december = Month::parse("2026-12").unwrap();
        assert_eq!(december.next().to_string(), "2027-01");
        assert_eq!(
            utc(Month::parse("2028-02").unwrap().next().start_ms() - 1),
            "2028-02-29T23:59:59Z"
        );
    }
}
