package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

/**
 * What a page says instead of (or above) its figures: a refusal or failure of a service in plain words, or an
 * empty state and what to do about it.
 *
 * @param kind   {@code error} or {@code info}, the box's style
 * @param title  one line
 * @param detail the service's own words, when it gave any
 * @param hint   what the user can do
 */
@TemplateData
public record Message(String kind, String title, String detail, String hint) {

    public static Message error(String title, String detail, String hint) {
        return new Message("error", title, detail, hint);
    }

    public static Message info(String title, String hint) {
        return new Message("info", title, null, hint);
    }
}
