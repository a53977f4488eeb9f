package io.gpumeter.common.fact;

import io.gpumeter.common.problem.Params;

/** The kind of change a Kubernetes watch event reports. */
public enum WatchEventType {
    ADDED, MODIFIED, DELETED;

    /** Strict parser: anything but the three watch verbs is refused with the accepted values in the message. */
    public static WatchEventType parse(String text) {
        return Params.oneOf("type", text, WatchEventType.class);
    }
}
