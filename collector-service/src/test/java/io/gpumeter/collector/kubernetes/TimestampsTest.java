package io.gpumeter.collector.kubernetes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TimestampsTest {

    /** Kubernetes Time, MicroTime and any RFC 3339 offset, each to the instant it names. */
    @ParameterizedTest
    @CsvSource({
            "2026-05-01T08:00:00Z, 2026-05-01T08:00:00Z",
            "2026-05-01T08:00:00.123456Z, 2026-05-01T08:00:00.123456Z",
            "2026-05-01T08:00:00.5Z, 2026-05-01T08:00:00.500Z",
            "2026-05-01T10:00:00+02:00, 2026-05-01T08:00:00Z",
            "2026-05-01T03:30:00-04:30, 2026-05-01T08:00:00Z",
            "2026-05-01t08:00:00z, 2026-05-01T08:00:00Z",
            "2026-05-01T08:00Z, 2026-05-01T08:00:00Z",
            "'  2026-05-01T08:00:00Z  ', 2026-05-01T08:00:00Z",
            "2024-02-29T23:59:59.999999999Z, 2024-02-29T23:59:59.999999999Z"})
    void readsEachSpellingAsTheInstantItNames(String text, String expected) {
        assertEquals(Instant.parse(expected), Timestamps.parse(text, "metadata.creationTimestamp"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-05-01", "2026-02-30T00:00:00Z", "2026-05-01T24:00:01Z", "yesterday", "1714521600",
            "2026-05-01T08:00:00", "2026-05-01 08:00:00Z", "2026-13-01T00:00:00Z"})
    void skipsTheObjectOnAValueThatIsNotATimeNamingTheField(String text) {
        Skip skip = assertThrows(Skip.class, () -> Timestamps.parse(text, "status.startTime"));
        assertEquals("bad timestamp in status.startTime", skip.reason());
    }

    @Test
    void anAbsentValueIsNoTime() {
        assertNull(Timestamps.parse(null, "metadata.deletionTimestamp"));
        assertNull(Timestamps.parse("  ", "metadata.deletionTimestamp"));
    }
}
