package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.XidClass;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * NVIDIA Xid codes: the text dcgm-exporter prints for each (its xidErrCodeToText table, shipped as a resource) and
 * a severity class. Application Xids are the workload's own fault and need no repair of the card; hardware and
 * driver Xids need a reset, a drain or a replacement.
 */
public final class XidCatalog {

    /** How an Xid is handled. */
    public enum Severity {
        APPLICATION(RootCauseClass.WORKLOAD), HARDWARE_DRIVER(RootCauseClass.DATA_PLANE),
        UNCLASSIFIED(RootCauseClass.DATA_PLANE);

        private final RootCauseClass rootCause;

        Severity(RootCauseClass rootCause) {
            this.rootCause = rootCause;
        }

        public RootCauseClass rootCause() {
            return rootCause;
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private static final Map<Integer, String> TEXT = load();

    private XidCatalog() {
    }

    /** The code's class, as common's {@link XidClass} holds the catalogue's classes for every reader. */
    public static Severity severity(int code) {
        return Severity.valueOf(XidClass.of(code).name());
    }

    /** dcgm-exporter's text for the code, or "Unknown Error" as dcgm-exporter itself says past its table. */
    public static String text(int code) {
        return TEXT.getOrDefault(code, "Unknown Error");
    }

    /** The failure cause an Xid counts as: 79 is the card lost, every other code its own cause. */
    public static String cause(int code) {
        return code == 79 ? FailureCause.GPU_LOST.label() : "xid-" + code;
    }

    private static Map<Integer, String> load() {
        Map<Integer, String> text = new HashMap<>();
        InputStream in = XidCatalog.class.getResourceAsStream("xid-codes.csv");
        if (in == null) {
            return text;
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            reader.readLine();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                int comma = line.indexOf(',');
                if (comma > 0) {
                    String value = line.substring(comma + 1).trim();
                    if (value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2) {
                        value = value.substring(1, value.length() - 1).replace("\"\"", "\"");
                    }
                    text.put(Integer.parseInt(line.substring(0, comma).trim()), value);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text;
    }
}
