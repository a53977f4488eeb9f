package io.gpumeter.ledger.repository;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ColumnsTest {

    @Test
    void anInstantIsBoundAsItsUtcOffsetDateTime() {
        SplittableRandom random = new SplittableRandom(28);
        for (int i = 0; i < 50_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_799L),
                    random.nextInt(1_000_000_000));
            OffsetDateTime bound = Columns.offset(instant);
            assertEquals(instant.atOffset(ZoneOffset.UTC), bound, instant.toString());
            assertEquals(instant, bound.toInstant());
        }
        assertNull(Columns.offset(null));
    }

    @Test
    void aColumnHoldsOneFieldOfEveryItemInOrder() {
        List<Instant> items = List.of(Instant.parse("2026-05-01T00:00:00Z"), Instant.parse("2026-05-02T12:30:00.5Z"));
        assertArrayEquals(new String[]{"2026-05-01T00:00:00Z", "2026-05-02T12:30:00.500Z"}, Columns.strings(items, Instant::toString));
        assertEquals(Arrays.asList(items.get(0).atOffset(ZoneOffset.UTC), null),
                Arrays.asList(Columns.times(items, t -> t.getNano() == 0 ? t : null)));
        assertArrayEquals(new Long[]{1_777_593_600L, 1_777_725_000L}, Columns.values(items, Instant::getEpochSecond, Long[]::new));
    }
}
