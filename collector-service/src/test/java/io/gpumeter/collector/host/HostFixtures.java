package io.gpumeter.collector.host;

import io.gpumeter.collector.usage.PrometheusTextParser;
import io.gpumeter.collector.usage.Sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The real captures under fixtures/host (PROVENANCE.md there says where each comes from). */
public final class HostFixtures {

    private HostFixtures() {
    }

    public static String text(String name) {
        try (InputStream in = HostFixtures.class.getResourceAsStream("/fixtures/host/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<Sample> samples(String name) {
        return new PrometheusTextParser().parse(text(name));
    }
}
