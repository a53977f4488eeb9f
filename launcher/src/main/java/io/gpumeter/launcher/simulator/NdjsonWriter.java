package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.Writer;

/** Writes a plan as newline-delimited watch events: {@code {"type":"ADDED","object":{...}}}, one per line. */
public final class NdjsonWriter {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private NdjsonWriter() {
    }

    public static void write(Plan plan, Writer out) throws IOException {
        for (SimEvent event : plan.events()) {
            out.write(line(event));
            out.write('\n');
        }
        out.flush();
    }

    /** One event as Kubernetes would put it on a watch stream, without the trailing newline. */
    public static String line(SimEvent event) {
        return "{\"type\":\"" + event.type().name() + "\",\"object\":" + SERIALIZATION.asJson(event.object()) + "}";
    }
}
