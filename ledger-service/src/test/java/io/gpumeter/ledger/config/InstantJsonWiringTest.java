package io.gpumeter.ledger.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The service's own mapper — the one that reads requests and writes fact payloads — writes instants through common's codec. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class InstantJsonWiringTest {

    @Inject
    ObjectMapper json;

    @Test
    void theServiceMapperUsesTheInstantCodecAndKeepsItsOtherSettings() throws Exception {
        assertEquals("io.gpumeter.common.json.InstantJson$Writer",
                json.getSerializerProviderInstance().findValueSerializer(Instant.class).getClass().getName());
        assertEquals("\"2026-05-01T08:00:00.250Z\"", json.writeValueAsString(Instant.parse("2026-05-01T08:00:00.250Z")));
        assertEquals(Instant.parse("2026-05-01T06:00:00Z"), json.readValue("\"2026-05-01T08:00:00+02:00\"", Instant.class));
        assertEquals("0.00000001", json.writeValueAsString(new BigDecimal("1E-8")));
    }
}
