package io.gpumeter.collector.rest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The vLLM expositions under {@code latency/} in the test resources. */
final class VllmScrapes {

    private VllmScrapes() {
    }

    static String scrape(String name) {
        try (InputStream in = VllmScrapes.class.getResourceAsStream("/latency/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
