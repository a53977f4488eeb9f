package io.gpumeter.collector.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.UncheckedIOException;

/** A request body written as JSON once, sent as it is on every attempt. */
public record JsonBody(byte[] bytes) {

    public static JsonBody of(ObjectMapper json, Object value) {
        try {
            return new JsonBody(json.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
