package dev.berth.manager.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The test needs a Docker engine (Debian's docker.io) and locally built images; run the group alone with {@code -Dgroups=docker}, or leave it out with {@code -DexcludedGroups=docker}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("docker")
public @interface NeedsDocker {}
