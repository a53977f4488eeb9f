package io.gpumeter.slo.capacity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HorizonTest {

    @Test
    void daysAreRead() {
        assertEquals(7, Horizon.days("horizon", "7d", 1, 90));
        assertEquals(30, Horizon.days("horizon", "30d", 1, 90));
        assertEquals(90, Horizon.days("horizon", "90d", 1, 90));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "7", "d", "7D", "1w", "P7D", "-7d", "0d", "07d", "91d", "7.5d", "7dd"})
    void anythingElseIsRefusedNamingTheField(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Horizon.days("horizon", text, 1, 90));
        assertTrue(e.getMessage().startsWith("horizon must be"), e.getMessage());
    }
}
