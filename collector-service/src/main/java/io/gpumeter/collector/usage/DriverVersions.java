package io.gpumeter.collector.usage;

import java.util.regex.Pattern;

/**
 * What an NVIDIA driver version looks like: numbers joined by dots, as nvidia-smi's {@code driver_version} and
 * dcgm-exporter's {@code DCGM_FI_DRIVER_VERSION} print it ({@code 550.54.15}, {@code 535.104.05}, {@code 580.95}).
 * Anything else in that place — {@code [N/A]} aside, which means none — is not taken for a version: compared as
 * text it would make a change out of a garbled reading.
 */
final class DriverVersions {

    private static final Pattern VERSION = Pattern.compile("[0-9]{1,5}(\\.[0-9]{1,5}){1,3}");
    static final int SHOWN = 40;

    private DriverVersions() {
    }

    /** Null for a version, else why it is not one. */
    static String problem(String version) {
        if (VERSION.matcher(version).matches()) {
            return null;
        }
        String shown = version.length() > SHOWN ? version.substring(0, SHOWN) + "…" : version;
        return "driver version \"" + shown.replaceAll("\\p{Cntrl}", "?") + "\" is not numbers joined by dots";
    }
}
