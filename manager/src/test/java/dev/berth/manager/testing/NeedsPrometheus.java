package dev.berth.manager.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The test needs Prometheus or its promtool (Debian package prometheus); run the group alone with {@code -Dgroups=prometheus}, or leave it out with {@code -DexcludedGroups=prometheus}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("prometheus")
public @interface NeedsPrometheus {}
