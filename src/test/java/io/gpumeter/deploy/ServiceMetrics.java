package io.gpumeter.deploy;

import java.util.ArrayList;
import java.util.List;

/** The services' own metrics listed in deploy/service-metrics.txt. */
record ServiceMetrics(String name, String kind, String module, String registeredAs) {

    static List<ServiceMetrics> load() {
        List<ServiceMetrics> out = new ArrayList<>();
        for (String line : Repo.resource("service-metrics.txt").split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\\s+");
            if (f.length != 3) {
                throw new IllegalStateException("service-metrics.txt: expected <name> <kind> <source>: " + l);
            }
            if (f[1].equals("standard")) {
                out.add(new ServiceMetrics(f[0], f[1], null, null));
            } else {
                String[] source = f[2].split(":", 2);
                out.add(new ServiceMetrics(f[0], f[1], source[0], source[1]));
            }
        }
        return out;
    }

    boolean standard() {
        return kind.equals("standard");
    }
}
