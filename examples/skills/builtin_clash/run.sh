#!/bin/sh
echo {}
