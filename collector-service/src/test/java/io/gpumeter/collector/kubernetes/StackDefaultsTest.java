package io.gpumeter.collector.kubernetes;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The default GPU-stack components in application.properties are the upstream charts' names and namespaces, as
 * gpu-stack/upstream-components.csv records them with the file and commit each comes from.
 */
class StackDefaultsTest {

    @Test
    void theDefaultsAreTheUpstreamNamesAndNamespaces() throws IOException {
        Map<String, String> upstream = new TreeMap<>();
        try (Reader in = reader("/gpu-stack/upstream-components.csv")) {
            for (CSVRecord row : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                upstream.put(row.get("component"), row.get("namespace") + "/" + row.get("kind") + "/" + row.get("name"));
            }
        }
        Properties properties = new Properties();
        try (Reader in = reader("/application.properties")) {
            properties.load(in);
        }
        Map<String, String> configured = new TreeMap<>();
        String prefix = "gpumeter.collector.stack.components.";
        properties.stringPropertyNames().stream().filter(k -> k.startsWith(prefix))
                .forEach(k -> configured.put(k.substring(prefix.length()), properties.getProperty(k).trim()));
        assertEquals(upstream, configured);
        assertEquals(12, StackComponents.parse(configured).all().size(), "each default is one workload");
    }

    private static Reader reader(String resource) {
        InputStream in = StackDefaultsTest.class.getResourceAsStream(resource);
        assertNotNull(in, resource);
        return new InputStreamReader(in, StandardCharsets.UTF_8);
    }
}
