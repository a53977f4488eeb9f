package io.gpumeter.collector.usage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test resources under {@code fixtures/}, and the sections of the H200 nvidia-smi capture. */
final class Fixtures {

    static final String H200 = "nvidia-smi-capture-h200-mig-590.48.01.txt";

    private Fixtures() {
    }

    static String read(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The raw output under a capture heading such as {@code load :: pmon (per-process monitor)}: the lines between
     * the rule after the heading's command line and the next rule, trailing blank lines dropped.
     */
    static String h200(String heading) {
        List<String> lines = read(H200).lines().toList();
        int at = lines.indexOf("# " + heading);
        if (at < 0) {
            throw new IllegalArgumentException("no section " + heading);
        }
        int start = at + 1;
        while (!lines.get(start).startsWith("#####")) {
            start++;
        }
        List<String> section = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#####"); i++) {
            section.add(lines.get(i));
        }
        while (!section.isEmpty() && section.get(section.size() - 1).isBlank()) {
            section.remove(section.size() - 1);
        }
        return String.join("\n", section) + "\n";
    }
}
