#!/usr/bin/env node
// A committed launcher, so package managers can link the command before the build has run.
import '../dist/bin.js';
