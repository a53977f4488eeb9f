package io.gpumeter.collector.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.FactBundle;

import java.io.IOException;

/**
 * A bundle as the ledger reads it, for the ledger's stand-ins: the governance views the collector sent as carried
 * fields made whole again ({@link FactBundle#expanded()}), so a test reads every view where it always was.
 */
public final class WholeBundles {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private WholeBundles() {
    }

    public static JsonNode read(byte[] body) throws IOException {
        return JSON.valueToTree(JSON.readValue(body, FactBundle.class).expanded());
    }
}
