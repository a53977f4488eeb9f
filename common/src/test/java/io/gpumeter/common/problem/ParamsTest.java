package io.gpumeter.common.problem;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParamsTest {

    @Test
    void aFlagIsTrueOrFalseInEitherCaseAndFalseWhenAbsent() {
        assertTrue(Params.flag("open", "true"));
        assertTrue(Params.flag("open", " True "));
        assertFalse(Params.flag("open", "FALSE"));
        assertFalse(Params.flag("open", null));
        assertFalse(Params.flag("open", ""));
        ApiProblem bad = assertThrows(ApiProblem.class, () -> Params.flag("open", "1"));
        assertEquals(400, bad.status());
        assertEquals("open", bad.field());
        assertEquals("open must be true or false, got '1'", bad.getMessage());
    }

    @Test
    void anOptionalInstantIsNullWhenAbsentAndStrictWhenGiven() {
        assertNull(Params.instantOrNull("from", null));
        assertNull(Params.instantOrNull("from", " "));
        assertEquals(Instant.parse("2026-05-01T00:00:00Z"), Params.instantOrNull("from", "2026-05-01T02:00:00+02:00"));
        assertEquals("from", assertThrows(ApiProblem.class, () -> Params.instantOrNull("from", "yesterday")).field());
    }
}
