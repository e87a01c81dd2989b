package dev.berth.manager.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The test needs the real kubectl (/usr/bin/kubectl or the Cloud SDK's); run the group alone with {@code -Dgroups=kubectl}, or leave it out with {@code -DexcludedGroups=kubectl}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("kubectl")
public @interface NeedsKubectl {}
