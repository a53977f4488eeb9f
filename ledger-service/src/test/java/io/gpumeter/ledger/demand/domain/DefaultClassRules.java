package io.gpumeter.ledger.demand.domain;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** The workload-class rules application.properties ships, read as the service reads them (by index, in order). */
final class DefaultClassRules {

    static final String PREFIX = "gpumeter.ledger.workload-classes.rules[";

    private DefaultClassRules() {
    }

    static List<ClassRule> load() {
        Properties p = new Properties();
        try (InputStream in = DefaultClassRules.class.getResourceAsStream("/application.properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<ClassRule> rules = new ArrayList<>();
        for (int i = 0; p.containsKey(PREFIX + i + "].class"); i++) {
            rules.add(ClassRule.parse(p.getProperty(PREFIX + i + "].owner"), p.getProperty(PREFIX + i + "].label"),
                    p.getProperty(PREFIX + i + "].class")));
        }
        return rules;
    }
}
